// Payout balances per chain: the USDC the merchant's payout address on each chain of the mode holds there
// (the address set for the chain, else the account's),
// read from the chain (the platform holds no merchant funds; sweeps and relayed payments pay the payout
// address on the chain the money came in on). A chain whose node is down is listed as unavailable.
import { getAddress } from 'viem';
import { chainFor, chainsOf, type ChainConfig } from '../chain/config.js';
import { publicClientFor } from '../chain/clients.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import type { Sql } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import { findChainPayouts, findMerchant } from '../merchants/repo.js';
import { networkName } from '../payment-sessions/api-shape.js';
import type { PayoutBalanceList } from './schemas.js';

export function createBalanceService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
  return {
    async list(scope: MerchantScope): Promise<PayoutBalanceList> {
      chainFor(chain, scope.livemode); // a mode without a chain is refused with its own message
      const merchant = await findMerchant(sql, scope.merchantId);
      const own = await findChainPayouts(sql, scope.merchantId, scope.livemode);
      const data = await Promise.all(
        chainsOf(chain, scope.livemode).map(async (settings) => {
          // Each chain's payout: the address set for it, else the account's.
          const payout = own.find((row) => row.chainId === settings.chainId)?.payoutAddress ?? merchant?.payoutAddress ?? null;
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
