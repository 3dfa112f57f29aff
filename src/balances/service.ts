// Payout balances per chain: the USDC the merchant's payout address holds on each chain of the mode,
// read from the chain (the platform holds no merchant funds; sweeps and relayed payments pay the payout
// address on the chain the money came in on). A chain whose node is down is listed as unavailable.
import { getAddress } from 'viem';
import { chainFor, chainsOf, type ChainConfig } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import type { Sql } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { findMerchant } from '../merchants/repo.js';
import { networkName } from '../payment-sessions/api-shape.js';
import type { PayoutBalanceList } from './schemas.js';

export function createBalanceService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
  return {
    async list(scope: MerchantScope): Promise<PayoutBalanceList> {
      chainFor(chain, scope.livemode); // a mode without a chain is refused with its own message
      const payout = (await findMerchant(sql, scope.merchantId))?.payoutAddress ?? null;
      const data = await Promise.all(
        chainsOf(chain, scope.livemode).map(async (settings) => {
          const base = {
            object: 'payout_balance' as const,
            chainId: settings.chainId,
            network: networkName(settings.chainId),
            token: settings.token,
            payoutAddress: payout,
          };
          if (!payout) return { ...base, amount: null, unavailable: false };
          try {
            const amount = await publicClientFor(settings).readContract({
              address: settings.token,
              abi: fiatTokenAbi,
              functionName: 'balanceOf',
              args: [getAddress(payout)],
            });
            return { ...base, amount: amount.toString(), unavailable: false };
          } catch {
            // One chain's node down must not hide the others' balances.
            return { ...base, amount: null, unavailable: true };
          }
        }),
      );
      return { object: 'list', data };
    },
  };
}

export type BalanceService = ReturnType<typeof createBalanceService>;
