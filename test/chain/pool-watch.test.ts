// The dev chain's pool watch against a real anvil. The stall it repairs comes from a race inside
// anvil: one sender's transactions sent at once, out of nonce order, now and then leave the next
// nonce in the pool for good. The test sends rounds of 64 transfers in swapped pairs of nonces
// until that happens (usually within seconds), then lets the watch repair it.
import { type Hash, type Hex, type PublicClient, createPublicClient, http, keccak256, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/dev/chain/anvil.js';
import { watchAnvilPool } from '../../src/dev/chain/pool-watch.js';
import { DEV_ACCOUNTS } from '../../src/dev/chain/test-accounts.js';

let anvil: AnvilInstance;
let pub: PublicClient;
const sender = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const lines: string[] = [];

beforeAll(async () => {
  // The watch is started by hand below, so the test controls when it looks.
  anvil = await startAnvil({ watchPool: false });
  pub = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient;
});
afterAll(async () => {
  await anvil?.stop();
});

const setAutomine = (on: boolean) => pub.request({ method: 'evm_setAutomine' as never, params: [on] as never });
const poolSize = async () => {
  const status = (await pub.request({ method: 'txpool_status' as never })) as { pending: Hex; queued: Hex };
  return Number(BigInt(status.pending) + BigInt(status.queued));
};

async function signTransfer(nonce: number): Promise<Hex> {
  const fees = await pub.estimateFeesPerGas();
  return sender.signTransaction({
    type: 'eip1559',
    chainId: anvil.chainId,
    to: DEV_ACCOUNTS.merchant.address,
    value: parseEther('0.000001'),
    nonce,
    gas: 21_000n,
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `check` turns true within `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/** Whether the sender's transaction of this nonce sits in anvil's pool. */
async function inPool(nonce: number): Promise<boolean> {
  const content = (await pub.request({ method: 'txpool_content' as never })) as Record<'pending' | 'queued', Record<string, Record<string, unknown>>>;
  return [content.pending, content.queued].some((pool) =>
    Object.entries(pool).some(([address, byNonce]) => address.toLowerCase() === sender.address.toLowerCase() && String(nonce) in byNonce),
  );
}

describe('anvil pool watch', () => {
  it('re-sends a sender that anvil stalled, in nonce order: the same transactions are mined under their own hashes', async () => {
    // Rounds until anvil stalls: a round not mined within half a second whose next nonce is still
    // in the pool a second later (with automine, a ready transaction is mined on arrival).
    let stalled: { nonce: number; hashes: Hash[] } | undefined;
    for (let round = 0; round < 300 && !stalled; round++) {
      const nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' });
      const raws = await Promise.all(Array.from({ length: 64 }, (_, i) => signTransfer(nonce + i)));
      const hashes = raws.map((raw) => keccak256(raw));
      await Promise.all(raws.map((_, i) => pub.sendRawTransaction({ serializedTransaction: raws[i ^ 1]! }).catch(() => undefined)));
      const allMined = async () => (await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' })) === nonce + 64;
      if (await eventually(allMined, 500)) continue;
      await sleep(1000);
      const next = await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' });
      if (next < nonce + 64 && (await inPool(next))) stalled = { nonce: next, hashes: hashes.slice(next - nonce) };
      else await eventually(allMined, 5000);
    }
    if (!stalled) throw new Error('anvil did not stall in 300 rounds: if this anvil version fixed foundry-rs/foundry#10122, the pool watch can go');

    const watch = watchAnvilPool(anvil.rpcUrl, { intervalMs: 100, log: (line) => lines.push(line) });
    try {
      const receipts = await Promise.all(stalled.hashes.map((hash) => pub.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 10_000 })));
      expect(receipts.every((r) => r.status === 'success')).toBe(true);
      expect(watch.unstuck()).toBeGreaterThanOrEqual(1);
      expect(lines.join('\n')).toContain(`nonce ${stalled.nonce} unmined`);
      expect(await poolSize()).toBe(0);
    } finally {
      await watch.stop();
    }
  });

  it('leaves a real nonce gap alone (only its sender can fill it) and touches nothing while automine is off', async () => {
    const watch = watchAnvilPool(anvil.rpcUrl, { intervalMs: 100 });
    try {
      const nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' });
      const later = await signTransfer(nonce + 1);
      const laterHash = await pub.sendRawTransaction({ serializedTransaction: later });
      await sleep(500);
      expect(await poolSize()).toBe(1);
      expect(watch.unstuck()).toBe(0);

      // Automine off: a ready transaction waits on purpose.
      await setAutomine(false);
      const firstHash = await pub.sendRawTransaction({ serializedTransaction: await signTransfer(nonce) });
      await sleep(500);
      expect(watch.unstuck()).toBe(0);
      expect(await poolSize()).toBe(2);

      await setAutomine(true);
      const receipts = await Promise.all([firstHash, laterHash].map((hash) => pub.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 5_000 })));
      expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    } finally {
      await setAutomine(true);
      await watch.stop();
    }
  });
});
