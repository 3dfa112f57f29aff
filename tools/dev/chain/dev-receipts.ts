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
// So every dev-tooling send goes through `sendDevTransaction`, which keeps the
// signed bytes. A wait that still times out says what the node holds, so the
// next such failure can be explained from its log alone.
// Dev tooling, tests and benchmarks only: the
// product's senders follow their transactions with their own code, and they
// re-send or replace a stuck one.
import {
  type Account,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type SendTransactionParameters,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';

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
      if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
      if (left <= nudgeAfterMs) {
        // The same error (callers and tests tell a timeout by its class), saying what the node holds.
        error.message = `${error.message}\n${await describeStuck(client, hash)}`;
        throw error;
      }
    }
    for (const raw of resend) await client.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
    await client.request({ method: 'evm_mine' as never, params: [] as never }).catch(() => undefined);
  }
}

/** Signs `request` locally, sends it raw and waits for its receipt, sending the same bytes again while it is missing. */
export async function sendDevTransaction(
  client: PublicClient,
  wallet: WalletClient<Transport, Chain, Account>,
  request: Omit<SendTransactionParameters<Chain, Account>, 'account' | 'chain'>,
): Promise<TransactionReceipt> {
  const prepared = await wallet.prepareTransactionRequest(request as never);
  const raw = await wallet.signTransaction(prepared as never);
  return waitForDevReceipt(client, await client.sendRawTransaction({ serializedTransaction: raw }), { resend: [raw] });
}

/** What the node knows of a transaction that was never mined: whether it is known at all, and its pool's summary. */
async function describeStuck(client: PublicClient, hash: Hash): Promise<string> {
  const known = await client.getTransaction({ hash }).then(
    (tx) => `the node holds it (from ${tx.from}, nonce ${tx.nonce}, max fee ${tx.maxFeePerGas ?? tx.gasPrice})`,
    () => 'the node does not know it',
  );
  const pool = await client.request({ method: 'txpool_status' as never, params: [] as never }).then(
    (status) => `pool ${JSON.stringify(status)}`,
    () => 'pool unknown',
  );
  const block = await client.getBlock().then(
    (b) => `head ${b.number} base fee ${b.baseFeePerGas}`,
    () => 'head unknown',
  );
  return `(${hash}: ${known}; ${pool}; ${block})`;
}
