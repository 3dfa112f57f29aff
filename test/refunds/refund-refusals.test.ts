// Refund transfers refused by Circle's USDC on a private anvil: the issuer's blacklister and pauser
// dev accounts block the refunded customer, the payout address, or the whole token; the merchant's
// wallet sends the instructed transfer anyway (it is mined and reverts), and recording its hash fails
// the refund with the named refusal code and `refund.failed`, releasing what it reserved.
import { type Address, type Hex, type PublicClient, createPublicClient, createWalletClient, encodeFunctionData, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { insertPaymentSession } from '../../src/payment-sessions/repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;

const payout = DEV_ACCOUNTS.merchant.address;
const customer = privateKeyToAccount(DEV_ACCOUNTS.payers[3]!.privateKey);
const PAID = 5_000_000n;

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  token = chain.info.token;
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { chain: { test: settings } });
  merchant = await seedMerchant(db.sql, 'Refunding merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
  await chain?.stop();
});

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const walletOf = (privateKey: Hex) =>
  createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
  });
const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

/** As the issuer would: the blacklister and the pauser dev accounts call the real token. */
async function asIssuer(
  role: 'usdcBlacklister' | 'usdcPauser',
  functionName: 'blacklist' | 'unBlacklist' | 'pause' | 'unpause',
  args: readonly [Address] | readonly [],
) {
  const hash = await walletOf(DEV_ACCOUNTS[role].privateKey).writeContract({
    address: token,
    abi: fiatTokenAbi,
    functionName,
    args,
  } as never);
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
}

/** A completed payment of PAID by `customer` to the payout address: a real transfer, recorded as the relay would. */
async function paidSession(): Promise<string> {
  const hash = await walletOf(DEV_ACCOUNTS.payers[3]!.privateKey).writeContract({
    address: token,
    abi: fiatTokenAbi,
    functionName: 'transfer',
    args: [payout, PAID],
  });
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
  const id = newId('paymentSession');
  await insertPaymentSession(db.sql, {
    id,
    merchantId: merchant.merchantId,
    livemode: false,
    amount: PAID.toString(),
    currency: 'USDC',
    payTo: payout,
    token,
    chainId: chain.info.chainId,
    expiresAt: new Date(Date.now() + 3_600_000),
    successUrl: null,
    cancelUrl: null,
    metadata: {},
  });
  await db.sql`update payment_sessions set status = 'completed', payer = ${customer.address}, transaction_hash = ${hash}, completed_at = now() where id = ${id}`;
  return id;
}

const createRefund = async (paymentSessionId: string, amount?: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/refunds',
    headers: auth(),
    payload: { paymentSessionId, ...(amount ? { amount } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** The merchant wallet sends the instructed call with a fixed gas limit, so a refused transfer is mined (and reverts). */
async function sendInstructed(call: { to: Address; data: Hex }): Promise<{ hash: Hex; status: string }> {
  const hash = await walletOf(DEV_ACCOUNTS.merchant.privateKey).sendTransaction({ to: call.to, data: call.data, gas: 120_000n });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return { hash, status: receipt.status };
}

const record = (refundId: string, transactionHash: Hex) =>
  t.app.inject({ method: 'POST', url: `/v1/refunds/${refundId}/signature`, headers: auth(), payload: { transactionHash } });

const failedEvents = (refundId: string) =>
  db.sql<
    { data: { object: Record<string, unknown>; retry: string } }[]
  >`select data from events where type = 'refund.failed' and data->'object'->>'id' = ${refundId}`;

describe('a refund transfer refused by USDC', () => {
  it.each([
    [
      'the refunded customer is blacklisted',
      'payer_blacklisted',
      'never',
      () => asIssuer('usdcBlacklister', 'blacklist', [customer.address]),
      () => asIssuer('usdcBlacklister', 'unBlacklist', [customer.address]),
    ],
    [
      'the payout address is blacklisted',
      'merchant_blacklisted',
      'never',
      () => asIssuer('usdcBlacklister', 'blacklist', [payout]),
      () => asIssuer('usdcBlacklister', 'unBlacklist', [payout]),
    ],
    [
      'the token is paused',
      'token_paused',
      'later',
      () => asIssuer('usdcPauser', 'pause', []),
      () => asIssuer('usdcPauser', 'unpause', []),
    ],
  ] as const)(
    '%s: failed with %s and refund.failed, nothing moved, the amount refundable again',
    async (_label, code, retry, apply, undo) => {
      const sessionId = await paidSession();
      const refund = await createRefund(sessionId, '2000000');
      const before = [await balanceOf(payout), await balanceOf(customer.address)];
      await apply();
      let sent: { hash: Hex; status: string };
      try {
        sent = await sendInstructed(refund.instructions.call);
      } finally {
        await undo();
      }
      expect(sent.status).toBe('reverted');
      expect([await balanceOf(payout), await balanceOf(customer.address)]).toEqual(before);

      const res = await record(refund.id, sent.hash);
      expect(res.statusCode, res.body).toBe(200);
      const failed = res.json();
      expect(failed).toMatchObject({ id: refund.id, status: 'failed', failureCode: code, transactionHash: sent.hash, succeededAt: null });
      expect(failed.failureReason).toMatch(/USDC/);
      expect(Date.parse(failed.failedAt)).not.toBeNaN();
      expect((await t.app.inject({ method: 'GET', url: `/v1/refunds/${refund.id}`, headers: auth() })).json()).toMatchObject({
        status: 'failed',
        failureCode: code,
      });

      const events = await failedEvents(refund.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toMatchObject({ object: { id: refund.id, status: 'failed', failureCode: code }, retry });

      // Recording the same hash again answers the refund as it is; no second event.
      const again = await record(refund.id, sent.hash);
      expect(again.statusCode).toBe(200);
      expect(again.json().status).toBe('failed');
      expect(await failedEvents(refund.id)).toHaveLength(1);

      // The failed refund reserves nothing: all that was paid is refundable, and (the cause lifted) a new refund succeeds.
      const retried = await createRefund(sessionId);
      expect(retried.amount).toBe(PAID.toString());
      const ok = await sendInstructed(retried.instructions.call);
      expect(ok.status).toBe('success');
      const succeeded = await record(retried.id, ok.hash);
      expect(succeeded.statusCode, succeeded.body).toBe(200);
      expect(succeeded.json()).toMatchObject({ status: 'succeeded', failureCode: null, failureReason: null });
    },
  );

  it('a reverted transaction that is not the refund transfer changes nothing', async () => {
    const sessionId = await paidSession();
    const refund = await createRefund(sessionId, '1000000');
    await asIssuer('usdcPauser', 'pause', []);
    let other: { hash: Hex; status: string };
    try {
      // The payout wallet's transfer of another amount: refused by the token too, but not this refund's call.
      other = await sendInstructed({
        to: token,
        data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'transfer', args: [customer.address, 999n] }),
      });
    } finally {
      await asIssuer('usdcPauser', 'unpause', []);
    }
    expect(other.status).toBe('reverted');
    const res = await record(refund.id, other.hash);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'transactionHash' });
    expect(res.json().error.message).toMatch(/reverted/);
    expect((await t.app.inject({ method: 'GET', url: `/v1/refunds/${refund.id}`, headers: auth() })).json()).toMatchObject({
      status: 'pending',
      failureCode: null,
    });
    expect(await failedEvents(refund.id)).toHaveLength(0);
  });

  it('a failed refund cannot take another transaction', async () => {
    const sessionId = await paidSession();
    const refund = await createRefund(sessionId, '1000000');
    await asIssuer('usdcBlacklister', 'blacklist', [customer.address]);
    let sent: { hash: Hex; status: string };
    try {
      sent = await sendInstructed(refund.instructions.call);
    } finally {
      await asIssuer('usdcBlacklister', 'unBlacklist', [customer.address]);
    }
    expect((await record(refund.id, sent.hash)).json().status).toBe('failed');
    const ok = await sendInstructed(refund.instructions.call);
    expect(ok.status).toBe('success');
    const res = await record(refund.id, ok.hash);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ param: 'id' });
    expect(res.json().error.message).toMatch(/payer_blacklisted/);
  });
});
