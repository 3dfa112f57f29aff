// Chaos: the worker process is SIGKILLed while relayed payments are in flight,
// on a chain that mines a block every 2 seconds, so transactions are sent and
// not yet mined (the window between an on-chain send and its record is real).
// A new worker takes over. Every payment must be confirmed once: 0 lost, 0 sent
// twice (the relayer's nonce moves once per payment), and the merchant is paid
// exactly the sum.
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import { DEV_ACCOUNTS } from '../../src/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { startChaosStack, type ChaosStack } from './support/stack.js';
import { waitUntil } from './support/wait.js';

const PAYMENTS = 30;
const AMOUNT = 1_000_000n;

let stack: ChaosStack;
let merchant: SeededMerchant;

beforeAll(async () => {
  stack = await startChaosStack({ blockTime: 2 });
  merchant = await seedMerchant(stack.sql);
  await stack.sql`update merchants set payout_address = ${DEV_ACCOUNTS.merchant.address} where id = ${merchant.merchantId}`;
}, 240_000);

afterAll(async () => stack?.stop(), 60_000);

describe('worker SIGKILLed mid relay', () => {
  it('confirms every payment once after a new worker takes over', async () => {
    const info = stack.chain.info;
    const pub = createPublicClient({ chain: chainDefinition(info.chainId, info.rpcUrl), transport: http(info.rpcUrl) });
    await stack.start('api');
    let worker = await stack.start('worker');
    const domain = await readDomain(pub, info.token);
    const validBefore = (await pub.getBlock()).timestamp + 3600n;
    const merchantAddress = DEV_ACCOUNTS.merchant.address as Address;
    const balanceBefore = await pub.readContract({ address: info.token, abi: erc20Abi, functionName: 'balanceOf', args: [merchantAddress] });
    const relayerNonceBefore = await pub.getTransactionCount({ address: info.relayer });

    const bodies = await Promise.all(
      Array.from({ length: PAYMENTS }, async (_, i) => {
        const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[i % DEV_ACCOUNTS.payers.length]!.privateKey);
        const message = { from: payer.address, to: merchantAddress, value: AMOUNT, validAfter: 0n, validBefore, nonce: randomNonce() };
        const signature = await signAuthorization(payer, domain, 'TransferWithAuthorization', message);
        return { authorization: { ...message, value: AMOUNT.toString(), validAfter: '0', validBefore: validBefore.toString() }, signature };
      }),
    );
    const responses = await Promise.all(
      bodies.map((body, i) =>
        fetch(`${stack.apiUrl}/v1/relay/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${merchant.secretKey}`, 'idempotency-key': `chaos-relay-${i}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(PAYMENTS).fill(200));

    // Kill once some transactions are sent and not yet mined, and not all are done.
    const status = async () =>
      (await stack.sql<{ submitted: number; confirmed: number }[]>`
        select count(*) filter (where status = 'submitted')::int as submitted, count(*) filter (where status = 'confirmed')::int as confirmed
        from relay_submissions where merchant_id = ${merchant.merchantId}`)[0]!;
    await waitUntil('a payment sent and not yet mined', 120_000, async () => ((await status()).submitted > 0 ? true : undefined));
    const atKill = await status();
    await worker.kill();
    expect(atKill.confirmed).toBeLessThan(PAYMENTS);

    worker = await stack.start('worker');
    await waitUntil('every payment confirmed', 180_000, async () => ((await status()).confirmed === PAYMENTS ? true : undefined));

    const hashes = await stack.sql<{ hash: string }[]>`
      select distinct transaction_hash as hash from relay_submissions where merchant_id = ${merchant.merchantId} and status = 'confirmed'`;
    expect(hashes).toHaveLength(PAYMENTS);
    const balanceAfter = await pub.readContract({ address: info.token, abi: erc20Abi, functionName: 'balanceOf', args: [merchantAddress] });
    expect(balanceAfter - balanceBefore).toBe(AMOUNT * BigInt(PAYMENTS));
    // Nothing sent twice: the relayer sent one transaction per payment, none wasted on a duplicate.
    expect((await pub.getTransactionCount({ address: info.relayer })) - relayerNonceBefore).toBe(PAYMENTS);
  }, 420_000);
});
