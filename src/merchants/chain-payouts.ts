// A payout address per chain (issue 39, item 4): a merchant may name, for one configured chain of a mode, the
// address it is paid at there (PUT /v1/merchants/me/payout-addresses/{chainId}); a chain without one pays the
// account's payout address. The list shows the effective address per chain; `payoutAddressOn` is what every
// path that pays the merchant on a chain reads (src/merchants/repo.ts, findPayoutAddressOn).
import { getAddress } from 'viem';
import { chainFor, chainsOf, type ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { ApiError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { networkName } from '../payment-sessions/api-shape.js';
import { checkPayoutAddress } from './payout-address-checks.js';
import * as repo from './repo.js';
import type { ChainPayout, ChainPayoutList } from './schemas.js';

/** The effective payout of each configured chain of a mode: the chain's own address, else the account's. */
export function renderChainPayouts(
  config: ChainConfig,
  livemode: boolean,
  accountPayout: string | null,
  overrides: readonly repo.ChainPayoutRow[],
): ChainPayout[] {
  return chainsOf(config, livemode).map((settings) => {
    const own = overrides.find((row) => row.livemode === livemode && row.chainId === settings.chainId);
    const address = own?.payoutAddress ?? accountPayout;
    return {
      object: 'chain_payout',
      livemode,
      chainId: settings.chainId,
      network: networkName(settings.chainId),
      payoutAddress: address ? getAddress(address) : null,
      source: own ? 'chain' : 'account',
    };
  });
}

/** `chainId` as a configured chain of the mode, or `invalid_request` naming `chainId` (never a 500). */
function modeChain(config: ChainConfig, livemode: boolean, chainId: number) {
  try {
    return chainFor(config, livemode, chainId);
  } catch (error) {
    if (error instanceof ApiError) throw new InvalidRequestError(error.message, { param: 'chainId' });
    throw error;
  }
}

export function createChainPayoutService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
  async function list(scope: MerchantScope): Promise<ChainPayoutList> {
    const merchant = await repo.findMerchant(sql, scope.merchantId);
    if (!merchant) throw new NotFoundError('No such merchant.');
    const overrides = await repo.findChainPayouts(sql, scope.merchantId, scope.livemode);
    return { object: 'list', data: renderChainPayouts(chain, scope.livemode, merchant.payoutAddress, overrides) };
  }

  return {
    list,

    /**
     * Sets (or, with null, clears) the payout address of one configured chain of the request's mode. The
     * address passes the account payout's checks (on that chain) and may not be another merchant's.
     */
    async set(scope: MerchantScope, chainId: number, address: string | null): Promise<ChainPayoutList> {
      chainFor(chain, scope.livemode); // a mode without a chain says so, as every chain route does
      const settings = modeChain(chain, scope.livemode, chainId);
      if (address === null) {
        await repo.deleteChainPayout(sql, scope, settings.chainId);
        return list(scope);
      }
      const payoutAddress = getAddress(address);
      await checkPayoutAddress({ db: sql, chain }, payoutAddress, [settings]);
      await sql.begin(async (tx) => {
        // Subscription terms name the payout address: an address identifies one merchant in a mode. Registered
        // first, then read back, so of two merchants racing for one address the second is refused.
        await repo.addMerchantChainAddress(tx, { ...scope, address: payoutAddress, chainId: settings.chainId });
        const owner = await repo.findMerchantByChainAddress(tx, scope.livemode, payoutAddress);
        if (owner && owner.merchantId !== scope.merchantId) {
          throw new InvalidRequestError('This payout address belongs to another merchant.', { param: 'payoutAddress' });
        }
        await repo.upsertChainPayout(tx, { ...scope, chainId: settings.chainId, payoutAddress });
      });
      return list(scope);
    },
  };
}

export type ChainPayoutService = ReturnType<typeof createChainPayoutService>;
