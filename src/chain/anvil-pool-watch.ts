// A watchdog for anvil's transaction pool in automine mode.
//
// When one sender's transactions reach anvil concurrently and out of nonce order (the platform's
// group commit sends a batch of nonces at once), anvil 1.7 now and then leaves a transaction that
// is ready to run in its pool for good (foundry-rs/foundry#10122): nothing mines it, sending the
// same bytes again answers "already imported", and every later nonce of that sender waits behind
// it. A real node promotes such a transaction; on the dev chain the platform only got out by
// replacing it with a higher fee once it counted as stuck (seconds later), which cost benches
// their tail and tests their time.
//
// The watch looks at the pool a few times a second. A sender whose next nonce has sat in the pool
// unmined on two looks in a row (while anvil automines) has its pool transactions taken out and
// sent again in nonce order: the same signed bytes, so the same hashes; nothing is re-signed.
import type { Hex } from 'viem';

type PoolTransaction = { hash: Hex; nonce: Hex; from: string };
type PoolContent = Record<'pending' | 'queued', Record<string, Record<string, PoolTransaction>>>;

export type PoolWatch = { stop(): Promise<void>; /** Senders unstuck so far (for tests and logs). */ unstuck(): number };

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Every pool transaction of each sender, lowest nonce first. */
function bySender(content: PoolContent): Map<string, PoolTransaction[]> {
  const senders = new Map<string, PoolTransaction[]>();
  for (const pool of [content.pending, content.queued]) {
    for (const [sender, byNonce] of Object.entries(pool ?? {})) {
      const list = senders.get(sender.toLowerCase()) ?? [];
      list.push(...Object.values(byNonce));
      senders.set(sender.toLowerCase(), list);
    }
  }
  for (const list of senders.values()) list.sort((a, b) => Number(BigInt(a.nonce) - BigInt(b.nonce)));
  return senders;
}

export function watchAnvilPool(rpcUrl: string, options: { intervalMs?: number; log?: (line: string) => void } = {}): PoolWatch {
  const intervalMs = options.intervalMs ?? 250;
  /** `sender:nonce:hash` of next-nonce transactions seen unmined on the previous look. */
  let suspects = new Set<string>();
  let unstuck = 0;
  let stopped = false;

  async function resend(sender: string, transactions: PoolTransaction[]): Promise<void> {
    const raws = await Promise.all(transactions.map((tx) => rpc<Hex | null>(rpcUrl, 'eth_getRawTransactionByHash', [tx.hash])));
    if (raws.some((raw) => !raw)) return; // mined or gone meanwhile: look again next time
    await rpc(rpcUrl, 'anvil_removePoolTransactions', [sender]);
    // One at a time, in nonce order: the arrival order anvil handles.
    for (const raw of raws) await rpc(rpcUrl, 'eth_sendRawTransaction', [raw]).catch(() => undefined);
    unstuck++;
    options.log?.(
      `anvil left ${sender}'s nonce ${BigInt(transactions[0]!.nonce)} unmined in its pool; re-sent its ${raws.length} pool transaction(s) in nonce order`,
    );
  }

  async function look(): Promise<void> {
    const status = await rpc<{ pending: Hex; queued: Hex }>(rpcUrl, 'txpool_status');
    if (BigInt(status.pending) === 0n && BigInt(status.queued) === 0n) {
      suspects = new Set();
      return;
    }
    // A test that stopped automine holds transactions in the pool on purpose.
    if (!(await rpc<boolean>(rpcUrl, 'anvil_getAutomine'))) {
      suspects = new Set();
      return;
    }
    const next = new Set<string>();
    for (const [sender, transactions] of bySender(await rpc<PoolContent>(rpcUrl, 'txpool_content'))) {
      const mined = BigInt(await rpc<Hex>(rpcUrl, 'eth_getTransactionCount', [sender, 'latest']));
      const first = transactions.find((tx) => BigInt(tx.nonce) === mined);
      if (!first) continue; // only later nonces: a real gap, which only the sender can fill
      const key = `${sender}:${mined}:${first.hash}`;
      if (suspects.has(key))
        await resend(
          sender,
          transactions.filter((tx) => BigInt(tx.nonce) >= mined),
        );
      else next.add(key);
    }
    suspects = next;
  }

  const running = (async () => {
    while (!stopped) {
      // Unreferenced: the watch never keeps a process alive on its own.
      await new Promise((resolve) => setTimeout(resolve, intervalMs).unref());
      if (stopped) break;
      // anvil restarting or busy: the next look tries again.
      await look().catch(() => undefined);
    }
  })();

  return {
    async stop() {
      stopped = true;
      await running;
    },
    unstuck: () => unstuck,
  };
}
