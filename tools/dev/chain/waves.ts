// Sending many signed transactions from one account without flooding the node.
// A dev node (anvil) slows to a crawl with thousands of transactions waiting
// in its pool, so they go out in waves: each wave is sent at once, and the next
// waits until the wave's last transaction (highest nonce) is mined. Sign them
// with a fee cap far above the current base fee: full blocks raise the base fee
// by 12.5% each, and a transaction whose cap falls below it waits forever.
import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import { waitForDevReceipt } from './dev-receipts.js';

export const DEFAULT_WAVE = 200;

/** Sends `raws` (consecutive nonces of one account, in nonce order) in waves; returns their receipts in order. */
export async function sendSignedInWaves(client: PublicClient, raws: readonly Hex[], wave = DEFAULT_WAVE): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (let i = 0; i < raws.length; i += wave) {
    const batch = raws.slice(i, i + wave);
    const hashes = await Promise.all(batch.map((raw) => client.sendRawTransaction({ serializedTransaction: raw })));
    // Nonces are consecutive: once the last is mined, every earlier one is too (a stalled wave is sent again).
    await waitForDevReceipt(client, hashes[hashes.length - 1]!, { resend: batch });
    receipts.push(...(await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))));
  }
  return receipts;
}
