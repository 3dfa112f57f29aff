// The dev chain's pool watch against a real anvil. The stall it repairs comes from a race inside
// anvil: one sender's transactions sent at once, out of nonce order, now and then leave the next
// nonce in the pool for good. The test sends rounds of 64 transfers in swapped pairs of nonces with
// the watch on, for up to 20 s: every round must be mined. Without the watch a stalled round never
// is (on a quiet machine the stall comes within seconds; under load anvil sees less disorder and it
// comes more rarely, so a round is not required to stall: the test says how many did).
import { type Hex, type PublicClient, createPublicClient, http, keccak256, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { watchAnvilPool } from '../../src/chain/anvil-pool-watch.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';

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

describe('anvil pool watch', () => {
  it('re-sends a sender that anvil stalled, in nonce order: every round of out-of-order transfers is mined under its own hashes', async () => {
    const watch = watchAnvilPool(anvil.rpcUrl, { intervalMs: 100, log: (line) => lines.push(line) });
    try {
      const started = Date.now();
      let rounds = 0;
      while (Date.now() - started < 20_000 && rounds < 60) {
        rounds++;
        const nonce = await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' });
        const raws = await Promise.all(Array.from({ length: 64 }, (_, i) => signTransfer(nonce + i)));
        await Promise.all(raws.map((_, i) => pub.sendRawTransaction({ serializedTransaction: raws[i ^ 1]! }).catch(() => undefined)));
        const allMined = async () => (await pub.getTransactionCount({ address: sender.address, blockTag: 'latest' })) === nonce + 64;
        if (!(await eventually(allMined, 10_000)))
          throw new Error(`round ${rounds} was not mined: ${await poolSize()} transactions left in the pool`);
        // Under their own hashes: the re-sent bytes are the signed ones. Waited for: anvil can count a
        // nonce as used a moment before it serves the receipt (a full-suite CI run met it).
        const receipt = await pub.waitForTransactionReceipt({ hash: keccak256(raws[63]!), timeout: 5_000, pollingInterval: 50 });
        expect(receipt.status).toBe('success');
      }
      console.log(`[pool-watch] ${rounds} rounds of 64 out-of-order transfers mined; stalls repaired: ${watch.unstuck()}`);
      expect(lines.length).toBe(watch.unstuck());
      for (const line of lines) expect(line).toMatch(/nonce \d+ unmined in its pool; re-sent its \d+ pool transaction/);
      expect(await poolSize()).toBe(0);
    } finally {
      await watch.stop();
    }
  }, 120_000);

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
      const receipts = await Promise.all(
        [firstHash, laterHash].map((hash) => pub.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 5_000 })),
      );
      expect(receipts.map((r) => r.status)).toEqual(['success', 'success']);
    } finally {
      await setAutomine(true);
      await watch.stop();
    }
  });
});
