// The shared receipt waiter against a real anvil that mines only when told to
// (--no-mining), so "not mined yet" and "mined" are states the test controls.
import {
  type Hash,
  type PublicClient,
  WaitForTransactionReceiptTimeoutError,
  createPublicClient,
  createWalletClient,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { createReceiptWaiter } from '../../src/chain/receipts.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let anvil: AnvilInstance;
let pub: PublicClient;
let requests = 0;

beforeAll(async () => {
  anvil = await startAnvil({ extraArgs: ['--no-mining'] });
  const chain = chainDefinition(anvil.chainId, anvil.rpcUrl);
  pub = createPublicClient({
    chain,
    transport: http(anvil.rpcUrl, { batch: { batchSize: 100 }, onFetchRequest: () => void requests++ }),
  }) as PublicClient;
});
afterAll(async () => {
  await anvil?.stop();
});

async function sendTransfers(count: number): Promise<Hash[]> {
  const account = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
  const wallet = createWalletClient({ account, chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  let nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hash[] = [];
  for (let i = 0; i < count; i++) {
    hashes.push(
      await wallet.sendTransaction({ to: DEV_ACCOUNTS.merchant.address, value: parseEther('0.001'), nonce: nonce++, gas: 21_000n }),
    );
  }
  return hashes;
}

const mine = () => pub.request({ method: 'evm_mine' as never, params: [] as never });

describe('receipt waiter', () => {
  it('resolves every waiting transaction once it is mined, polling once per tick for all of them', async () => {
    const waiter = createReceiptWaiter(pub, 50);
    const hashes = await sendTransfers(40);
    let settled = 0;
    const all = Promise.all(hashes.map((hash) => waiter.wait(hash).finally(() => void settled++)));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(0);
    expect(waiter.pending()).toBe(40);

    // Six ticks with 40 transactions waiting: a watcher per transaction would send 40 requests a
    // tick; the shared loop sends one head poll, plus one batch when the head moves.
    const before = requests;
    await new Promise((r) => setTimeout(r, 300));
    expect(requests - before).toBeGreaterThan(0);
    expect(requests - before).toBeLessThanOrEqual(12);

    await mine();
    const receipts = await all;
    expect(receipts.map((r) => r.transactionHash)).toEqual(hashes);
    expect(receipts.every((r) => r.status === 'success')).toBe(true);
    expect(waiter.pending()).toBe(0);
  });

  it('answers at once for a transaction that is already mined', async () => {
    const [hash] = await sendTransfers(1);
    await mine();
    const receipt = await createReceiptWaiter(pub, 60_000).wait(hash!);
    expect(receipt.transactionHash).toBe(hash);
  });

  it('rejects a transaction that is not mined in time with a timeout error, and forgets it', async () => {
    const waiter = createReceiptWaiter(pub, 50);
    const [hash] = await sendTransfers(1);
    await expect(waiter.wait(hash!, { timeoutMs: 200 })).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
    expect(waiter.pending()).toBe(0);
    await mine();
  });
});

describe('dev-chain receipt wait', () => {
  it('asks the node to mine a transaction left in its pool, then returns its receipt', async () => {
    const [hash] = await sendTransfers(1);
    const head = await pub.getBlockNumber({ cacheTime: 0 });
    const receipt = await waitForDevReceipt(pub, hash!, { nudgeAfterMs: 200, timeoutMs: 10_000 });
    expect(receipt).toMatchObject({ transactionHash: hash, status: 'success' });
    expect(receipt.blockNumber).toBe(head + 1n);
  });

  it('still times out when the transaction does not exist', async () => {
    const missing = `0x${'ab'.repeat(32)}` as Hash;
    const failure = waitForDevReceipt(pub, missing, { nudgeAfterMs: 100, timeoutMs: 500 });
    await expect(failure).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
    // It says what the node holds, so a stuck dev deployment can be explained from its log.
    await expect(failure).rejects.toThrow(/the node does not know it; pool .*; head \d+/);
  });
});
