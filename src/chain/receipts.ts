// Waiting for the receipts of many transactions at once. viem's
// waitForTransactionReceipt runs one block watcher per transaction, so N
// transactions in flight poll the node N times per interval. Here one loop per
// client polls the head and, when it moved, asks for the receipts of every
// transaction still waiting (one JSON-RPC batch with a batching transport);
// a transaction added since the last look is looked up on the next tick anyway.
import { type Hash, type PublicClient, type TransactionReceipt, WaitForTransactionReceiptTimeoutError } from 'viem';

export type ReceiptWaiter = {
  /** Resolves with the receipt once the transaction is mined; rejects after `timeoutMs` (default 3 minutes). */
  wait(hash: Hash, options?: { timeoutMs?: number }): Promise<TransactionReceipt>;
  /** Transactions being waited for (for tests and metrics). */
  pending(): number;
};

type Waiter = { resolve: (receipt: TransactionReceipt) => void; reject: (error: unknown) => void; deadline: number };

const receiptOrUndefined = (client: PublicClient, hash: Hash) => client.getTransactionReceipt({ hash }).catch(() => undefined);

export function createReceiptWaiter(client: PublicClient, pollingIntervalMs: number): ReceiptWaiter {
  const waiting = new Map<Hash, Waiter[]>();
  /** Added since the last look: checked on the next tick even if the head did not move. */
  const fresh = new Set<Hash>();
  let polling = false;
  let lastHead: bigint | undefined;

  const settle = (hash: Hash, outcome: (w: Waiter) => void) => {
    for (const w of waiting.get(hash) ?? []) outcome(w);
    waiting.delete(hash);
  };

  async function tick(): Promise<void> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const hashes = head !== lastHead ? [...waiting.keys()] : [...fresh].filter((hash) => waiting.has(hash));
    lastHead = head;
    fresh.clear();
    if (hashes.length > 0) {
      const receipts = await Promise.all(hashes.map((hash) => receiptOrUndefined(client, hash)));
      receipts.forEach((receipt, i) => receipt && settle(hashes[i]!, (w) => w.resolve(receipt)));
    }
    const now = Date.now();
    for (const [hash, waiters] of waiting) {
      const expired = waiters.filter((w) => w.deadline <= now);
      if (expired.length === 0) continue;
      for (const w of expired) w.reject(new WaitForTransactionReceiptTimeoutError({ hash }));
      const rest = waiters.filter((w) => w.deadline > now);
      if (rest.length > 0) waiting.set(hash, rest);
      else waiting.delete(hash);
    }
  }

  async function poll(): Promise<void> {
    polling = true;
    try {
      while (waiting.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, pollingIntervalMs));
        // A node error is not the transaction's fate: keep waiting until the deadline.
        await tick().catch(() => undefined);
      }
    } finally {
      polling = false;
    }
  }

  return {
    async wait(hash, { timeoutMs = 180_000 } = {}) {
      // Often mined already (a dev chain mines on arrival): no need to wait for the next head.
      const now = await receiptOrUndefined(client, hash);
      if (now) return now;
      return new Promise<TransactionReceipt>((resolve, reject) => {
        const list = waiting.get(hash) ?? [];
        list.push({ resolve, reject, deadline: Date.now() + timeoutMs });
        waiting.set(hash, list);
        fresh.add(hash);
        if (!polling) void poll();
      });
    },
    pending: () => waiting.size,
  };
}
