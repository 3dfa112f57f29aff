// Sending many signed transactions from one account without flooding the node.
// A dev node (anvil) slows to a crawl with thousands of transactions waiting
// in its pool, so they go out in waves: each wave is sent at once, and the next
// waits until the wave's last transaction (highest nonce) is mined. Sign them
// with a fee cap far above the current base fee: full blocks raise the base fee
// by 12.5% each, and a transaction whose cap falls below it waits forever.
// A loaded machine can keep anvil from answering a send in time (a benchmark's set-up of 20,000
// enrolments failed so): such a send is not an error, the wave's wait sends it again.
import { keccak256, TimeoutError, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import { waitForDevReceipt } from './dev-receipts.js';

export const DEFAULT_WAVE = 200;

/** Sends `raws` (consecutive nonces of one account, in nonce order) in waves; returns their receipts in order. */
export async function sendSignedInWaves(client: PublicClient, raws: readonly Hex[], wave = DEFAULT_WAVE): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (let i = 0; i < raws.length; i += wave) {
    const batch = raws.slice(i, i + wave);
    const hashes = await Promise.all(batch.map((raw) => sendRaw(client, raw)));
    // Nonces are consecutive: once the last is mined, every earlier one is too (a stalled wave is sent again).
    await waitForDevReceipt(client, hashes[hashes.length - 1]!, { resend: batch });
    receipts.push(...(await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })))));
  }
  return receipts;
}

/**
 * Sends one signed transaction; its hash is the hash of its bytes, so a send the busy node did not answer in time
 * (it may still have taken it) is left to the wave's wait, which sends the wave again while its last receipt is missing.
 */
async function sendRaw(client: PublicClient, raw: Hex): Promise<Hex> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (!(error instanceof TimeoutError)) throw error;
  }
  return keccak256(raw);
}
