// Waiting for a receipt on a dev chain (tools/dev/chain/dev-receipts.ts): a nudge mines what the
// node holds, and a transaction the node lost is mined only when the caller sends it again.
import { createPublicClient, http, parseEther, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';

let anvil: AnvilInstance;
let pub: PublicClient;
const sender = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
let nonce = 0;

beforeAll(async () => {
  // No mining on its own: only the waiter's nudges mine blocks.
  anvil = await startAnvil({ extraArgs: ['--no-mining'] });
  pub = createPublicClient({ chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl), pollingInterval: 50 });
  nonce = await pub.getTransactionCount({ address: sender.address });
});
afterAll(() => anvil?.stop());

async function signedTransfer() {
  const fees = await pub.estimateFeesPerGas();
  return sender.signTransaction({
    type: 'eip1559',
    chainId: anvil.chainId,
    to: DEV_ACCOUNTS.merchant.address,
    value: parseEther('0.001'),
    gas: 21_000n,
    nonce: nonce++,
    maxFeePerGas: fees.maxFeePerGas * 10n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
}

describe('waitForDevReceipt', () => {
  it('a transaction left in the pool is mined by the nudge', async () => {
    const raw = await signedTransfer();
    const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await waitForDevReceipt(pub, hash, { timeoutMs: 10_000, nudgeAfterMs: 300 });
    expect(receipt.status).toBe('success');
  });

  it('a transaction the node lost is mined only when it is sent again', async () => {
    const raw = await signedTransfer();
    const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
    await pub.request({ method: 'anvil_dropTransaction' as never, params: [hash] as never });
    // Nudges alone mine empty blocks: the wait runs out.
    await expect(waitForDevReceipt(pub, hash, { timeoutMs: 1_500, nudgeAfterMs: 300 })).rejects.toThrow(/Timed out|timed out/i);
    const receipt = await waitForDevReceipt(pub, hash, { timeoutMs: 10_000, nudgeAfterMs: 300, resend: [raw] });
    expect(receipt.status).toBe('success');
    expect(receipt.transactionHash).toBe(hash);
  });
});
