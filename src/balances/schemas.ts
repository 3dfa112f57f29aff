// Response shape of the payout balances per chain (an extension: the spec shows no balance object;
// docs/decisions.md, "Money on each chain").
import { z } from 'zod';

export const payoutBalance = z
  .object({
    object: z.literal('payout_balance'),
    chainId: z.number().int().describe("The chain (EIP-155 id): one of the mode's configured chains."),
    network: z.string().describe("The chain's name as the checkout shows it."),
    token: z.string().describe('USDC on this chain.'),
    payoutAddress: z.string().nullable().describe('The payout address sweeps and relayed payments pay on this chain (null: none set).'),
    amount: z
      .string()
      .nullable()
      .describe(
        "The payout address's USDC balance on this chain now, in base units (null: no payout address, or the chain's node did not answer; see `unavailable`).",
      ),
    unavailable: z.boolean().describe("True when this chain's node did not answer: the other chains are still listed."),
  })
  .meta({ id: 'PayoutBalance' });

export const payoutBalanceList = z
  .object({ object: z.literal('list'), data: z.array(payoutBalance) })
  .describe("One entry per chain of the mode, in configuration order (the mode's first chain first).");

export type PayoutBalance = z.infer<typeof payoutBalance>;
export type PayoutBalanceList = z.infer<typeof payoutBalanceList>;
