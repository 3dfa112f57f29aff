// Sending signed transactions: what every platform sender (the relayer, the
// operator) does the same way.
import type { Hex, PublicClient } from 'viem';

/** Sends raw bytes; "already known" and the like mean the same bytes were sent before, which is fine. */
export async function broadcast(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Already in the pool or already mined: the same bytes were sent before.
    if (/already known|already imported|nonce too low|known transaction|replacement transaction underpriced|already exists/i.test(message))
      return;
    throw error;
  }
}

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** Fees for a same-nonce replacement: at least 25% above the old ones (nodes require 10%), and never below today's. */
export function replacementFees(old: Fees, current: Fees): Fees {
  const bump = (before: bigint, now: bigint) => {
    const raised = (before * 125n) / 100n + 1n;
    return raised > now ? raised : now;
  };
  const maxPriorityFeePerGas = bump(old.maxPriorityFeePerGas, current.maxPriorityFeePerGas);
  const maxFeePerGas = bump(old.maxFeePerGas, current.maxFeePerGas);
  return { maxPriorityFeePerGas, maxFeePerGas: maxFeePerGas < maxPriorityFeePerGas ? maxPriorityFeePerGas : maxFeePerGas };
}
