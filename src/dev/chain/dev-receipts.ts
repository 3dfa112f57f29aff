// Waiting for a receipt on a development chain (anvil). Under load, anvil's
// automine now and then leaves a transaction in its pool until another one
// arrives: one that came in while a block was being mined, say. Nothing else
// arrives during a deployment or at the end of a wave, so the wait would last
// until its timeout. After a short wait without a receipt, this asks the node to
// mine a block (`evm_mine`). A node that does not know the method refuses it,
// and the refusal is ignored. A caller that holds the signed transactions
// (`resend`) also sends them again at each nudge: a transaction the node no
// longer holds cannot be mined by a nudge (a test's deployment once waited out
// its whole timeout). The node refuses the ones it has or has mined; ignored too.
// Dev tooling, tests and benchmarks only: the
// product's senders follow their transactions with their own code, and they
// re-send or replace a stuck one.
import { type Hash, type Hex, type PublicClient, type TransactionReceipt, WaitForTransactionReceiptTimeoutError } from 'viem';

export async function waitForDevReceipt(
  client: PublicClient,
  hash: Hash,
  { timeoutMs = 120_000, nudgeAfterMs = 3_000, resend = [] }: { timeoutMs?: number; nudgeAfterMs?: number; resend?: readonly Hex[] } = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    try {
      return await client.waitForTransactionReceipt({ hash, timeout: Math.max(1, Math.min(nudgeAfterMs, left)) });
    } catch (error) {
      if (!(error instanceof WaitForTransactionReceiptTimeoutError) || left <= nudgeAfterMs) throw error;
    }
    for (const raw of resend) await client.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
    await client.request({ method: 'evm_mine' as never, params: [] as never }).catch(() => undefined);
  }
}
