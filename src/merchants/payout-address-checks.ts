// What a payout address must be before a merchant may set it (docs/decisions.md, Deposit forwarders
// v2): deposits are swept to it, so an address the token would refuse would leave them blocked. Not
// the zero address (USDC refuses transfers to it), not a contract of this platform or a deposit
// address (funds sent there would be stuck or loop), and not blacklisted by any configured mode's USDC.
// Read before the change's transaction: the chain reads stay outside it.
import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem';
import { publicClientFor } from '../chain/clients.js';
import { type ChainConfig, type ChainSettings, allChains, depositFactoryOf } from '../chain/config.js';
import { forwarderImplementationOf } from '../chain/deposits/deposit-contracts-v2.js';
import { isBlacklisted } from '../chain/token-standing.js';
import type { Db } from '../db/client.js';
import { InvalidRequestError } from '../errors.js';
import * as repo from './repo.js';

const PARAM = 'payoutAddress';

/** The platform's own contracts in every configured mode (a payout there could never be spent). */
function platformContracts(chain: ChainConfig): Address[] {
  const out: Address[] = [];
  // Every chain's: a further chain's contracts may sit at other addresses when configured so.
  for (const settings of allChains(chain)) {
    const v2 = depositFactoryOf(settings, 2);
    out.push(
      settings.token,
      settings.subscriptionManager,
      settings.escrow,
      depositFactoryOf(settings, 1),
      v2,
      forwarderImplementationOf(v2),
    );
    if (settings.yieldVault) out.push(settings.yieldVault);
  }
  return out;
}

/**
 * Throws the spec's `invalid_request` (param `payoutAddress`) when `address` may not receive payouts. The
 * blacklist is read on `on` (default: each mode's first chain; a chain's own payout: that chain).
 */
export async function checkPayoutAddress(
  deps: { db: Db; chain: ChainConfig },
  address: string,
  on: (ChainSettings | undefined)[] = [deps.chain.test, deps.chain.live],
): Promise<void> {
  const payout = getAddress(address);
  if (isAddressEqual(payout, zeroAddress)) {
    throw new InvalidRequestError('The payout address cannot be the zero address: USDC refuses transfers to it.', { param: PARAM });
  }
  if (
    platformContracts(deps.chain).some((contract) => isAddressEqual(contract, payout)) ||
    (await repo.isDepositAddress(deps.db, payout))
  ) {
    throw new InvalidRequestError('The payout address is a contract or deposit address of this platform; use a wallet you control.', {
      param: PARAM,
    });
  }
  for (const settings of on) {
    if (!settings) continue;
    let blacklisted: boolean;
    try {
      blacklisted = await isBlacklisted(publicClientFor(settings), settings.token, payout);
    } catch {
      // The node is unreachable: the sweeps' own re-check (deposit-sweep-blocks.ts) still guards.
      continue;
    }
    if (blacklisted) {
      throw new InvalidRequestError(`The payout address is blacklisted by USDC (${settings.mode} mode): it cannot receive payouts.`, {
        param: PARAM,
        details: { refusalCode: 'merchant_blacklisted' },
      });
    }
  }
}
