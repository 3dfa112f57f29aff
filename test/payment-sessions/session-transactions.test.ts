// GET /v1/payment-sessions/{id}/transactions against real Postgres: every transaction of a session
// (a refused relay try, the relayed payment, a deposit with its sweep, a late deposit, a refund),
// oldest first, with confirmations counted from the indexer's checkpoint; scoped like the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, sharedChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let sessionId: string;
const CHAIN_ID = 31337;
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const payer = `0x${'a1'.repeat(20)}`;
const payTo = `0x${'b2'.repeat(20)}`;
const depositAddress = `0x${'c3'.repeat(20)}`;
const hashOf = (byte: string) => `0x${byte.repeat(32)}`;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

async function seedSession(merchantId: string, deposit: string | null = null): Promise<string> {
  const id = newId('paymentSession');
  await db.sql`insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at,
                 payer, transaction_hash, completed_at, deposit_address, created_at)
               values (${id}, ${merchantId}, false, 5000000, 'USDC', 'completed', ${payTo}, ${TOKEN}, ${CHAIN_ID}, now() + interval '1 day',
                 ${payer}, ${hashOf('02')}, ${at(40)}, ${deposit}, ${at(60)})`;
  return id;
}

async function seedRelay(input: {
  status: string;
  hash: string | null;
  block: number | null;
  confirmations: number;
  failureCode?: string;
  minutesAgo: number;
}) {
  const id = newId('relaySubmission');
  const call = {
    kind: 'payment',
    token: TOKEN,
    from: payer,
    to: payTo,
    value: '5000000',
    validAfter: '0',
    validBefore: '9999999999',
    nonce: hashOf('ee'),
    signature: '0x',
  };
  await db.sql`insert into relay_submissions (id, merchant_id, livemode, idempotency_key, kind, chain_id, authorization_digest, call, status,
                 transaction_hash, block_number, confirmations, failure_code, failure_reason, payment_session_id, created_at, updated_at)
               values (${id}, ${merchant.merchantId}, false, ${id}, 'payment', ${CHAIN_ID}, ${id}, ${db.sql.json(call)}, ${input.status},
                 ${input.hash}, ${input.block}, ${input.confirmations}, ${input.failureCode ?? null},
                 ${input.failureCode ? 'The payer has too little USDC.' : null}, ${sessionId}, ${at(input.minutesAgo)}, ${at(input.minutesAgo - 5)})`;
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql, { chain: { test: settingsOf(sharedChain(), { confirmations: 3 }) } });
  merchant = await seedMerchant(db.sql);
  other = await seedMerchant(db.sql, 'Other merchant');
  sessionId = await seedSession(merchant.merchantId, depositAddress);
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('GET /v1/payment-sessions/{id}/transactions', () => {
  it('is empty for a session nothing happened to yet', async () => {
    const fresh = await seedSession(merchant.merchantId);
    const response = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${fresh}/transactions`,
      headers: auth(merchant.secretKey),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [] });
  });

  it('lists every transaction oldest first with its finality', async () => {
    const refused = await seedRelay({
      status: 'failed',
      hash: null,
      block: null,
      confirmations: 0,
      failureCode: 'insufficient_funds',
      minutesAgo: 55,
    });
    const paid = await seedRelay({ status: 'confirmed', hash: hashOf('02'), block: 100, confirmations: 3, minutesAgo: 50 });
    const deposit = newId('deposit');
    const lateDeposit = newId('deposit');
    const sweepPurpose = `sweep:${CHAIN_ID}:batch-1`;
    await db.sql`insert into deposits (id, payment_session_id, merchant_id, livemode, chain_id, token, deposit_address, payout_address, from_address,
                   amount, transaction_hash, log_index, block_number, status, sweep_purpose, sweep_transaction_hash, swept_at, created_at)
                 values (${deposit}, ${sessionId}, ${merchant.merchantId}, false, ${CHAIN_ID}, ${TOKEN}, ${depositAddress}, ${payTo}, ${payer},
                   1000000, ${hashOf('03')}, 0, 104, 'credited', ${sweepPurpose}, ${hashOf('04')}, ${at(30)}, ${at(45)}),
                        (${lateDeposit}, ${sessionId}, ${merchant.merchantId}, false, ${CHAIN_ID}, ${TOKEN}, ${depositAddress}, ${payTo}, ${payer},
                   250000, ${hashOf('05')}, 1, 110, 'late', null, null, null, ${at(20)})`;
    await db.sql`insert into chain_transactions (purpose, chain_id, address, nonce, raw_transaction, transaction_hash, all_hashes,
                   max_fee_per_gas, max_priority_fee_per_gas, gas, outcome)
                 values (${sweepPurpose}, ${CHAIN_ID}, ${payTo}, 900001, '0x', ${hashOf('04')}, ${[hashOf('04')]}, 1, 1, 21000, 'success')`;
    const refund = newId('refund');
    await db.sql`insert into refunds (id, merchant_id, livemode, payment_session_id, amount, currency, reason, status, chain_id, token,
                   from_address, to_address, transaction_hash, block_number, succeeded_at, created_at)
                 values (${refund}, ${merchant.merchantId}, false, ${sessionId}, 2000000, 'USDC', 'Asked', 'succeeded', ${CHAIN_ID}, ${TOKEN},
                   ${payTo}, ${payer}, ${hashOf('06')}, 112, ${at(5)}, ${at(10)})`;
    // The indexer has read up to block 112 with 3 confirmations: the head it saw was 114.
    await db.sql`insert into indexer_checkpoints (chain_id, livemode, block_number, block_hash) values (${CHAIN_ID}, false, 112, ${hashOf('99')})
                 on conflict (chain_id, livemode) do update set block_number = excluded.block_number`;

    const response = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${sessionId}/transactions`,
      headers: auth(merchant.secretKey),
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json() as { data: Record<string, unknown>[] };
    expect(data.map((tx) => [tx.kind, tx.sourceId, tx.status])).toEqual([
      ['payment', refused, 'failed'],
      ['payment', paid, 'confirmed'],
      ['deposit', deposit, 'confirmed'],
      ['sweep', deposit, 'confirmed'],
      ['deposit', lateDeposit, 'confirmed'],
      ['refund', refund, 'confirmed'],
    ]);
    expect(data[0]).toMatchObject({
      transactionHash: null,
      blockNumber: null,
      confirmations: null,
      failureCode: 'insufficient_funds',
      confirmedAt: null,
    });
    expect(data[1]).toMatchObject({
      object: 'payment_session_transaction',
      transactionHash: hashOf('02'),
      blockNumber: '100',
      confirmations: 15, // 112 - 100 + 3: the relay stopped counting at 3
      requiredConfirmations: 3,
      from: payer,
      to: payTo,
      amount: '5000000',
      late: false,
      failureCode: null,
    });
    expect(data[1]!.confirmedAt).toEqual(expect.any(String));
    expect(data[2]).toMatchObject({
      transactionHash: hashOf('03'),
      confirmations: 11,
      from: payer,
      to: depositAddress,
      amount: '1000000',
      late: false,
    });
    expect(data[3]).toMatchObject({
      transactionHash: hashOf('04'),
      confirmations: null,
      from: depositAddress,
      to: payTo,
      amount: '1000000',
    });
    expect(data[4]).toMatchObject({ transactionHash: hashOf('05'), late: true, amount: '250000', confirmations: 5 });
    expect(data[5]).toMatchObject({
      transactionHash: hashOf('06'),
      blockNumber: '112',
      confirmations: 3,
      from: payTo,
      to: payer,
      amount: '2000000',
    });
  });

  it('counts a transaction newer than the checkpoint only as far as the relay tracked it', async () => {
    const session = await seedSession(merchant.merchantId);
    const previous = sessionId;
    sessionId = session;
    await seedRelay({ status: 'submitted', hash: hashOf('07'), block: 120, confirmations: 1, minutesAgo: 3 });
    sessionId = previous;
    const response = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${session}/transactions`,
      headers: auth(merchant.secretKey),
    });
    expect(response.json().data).toEqual([expect.objectContaining({ status: 'submitted', confirmations: 1, confirmedAt: null })]);
  });

  it("answers not_found for another merchant's session, the other mode's key and an unknown id", async () => {
    for (const [id, key] of [
      [sessionId, other.secretKey],
      [sessionId, merchant.liveSecretKey],
      [newId('paymentSession'), merchant.secretKey],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}/transactions`, headers: auth(key) });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', param: 'id' });
    }
  });

  it('needs payment_sessions_read and a secret key', async () => {
    const key = await merchant.keyWithScopes(['plans_read']);
    const denied = await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${sessionId}/transactions`, headers: auth(key) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    const publishable = await t.app.inject({
      method: 'GET',
      url: `/v1/payment-sessions/${sessionId}/transactions`,
      headers: auth(merchant.publishableKey),
    });
    expect(publishable.statusCode).toBe(403);
  });
});
