// Checkout on several chains of one mode (issue 39): two anvils with Circle's USDC and the contracts at
// the same addresses (same deployer), an indexer per chain, the real worker and the API. A session's
// deposit address is the same on both chains; a transfer on either accepted chain pays toward it, one on
// a configured chain it does not accept is a late deposit; each deposit is swept on its own chain.
import { type Address, createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { SECOND_CHAIN_ID } from '../support/chain.js';
import { resolveAcceptedChains } from '../../src/payment-sessions/accepted-chains.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';

const CHAIN_B_ID = SECOND_CHAIN_ID;
let stack: PaymentsStack;
let a: ChainSettings;
let b: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
const payout = DEV_ACCOUNTS.merchant.address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);

const clientOf = (s: ChainSettings) => (s === b ? stack.second!.pub : stack.pub);

beforeAll(async () => {
  // One deposit indexer per chain, as the indexer process runs them.
  stack = await startPaymentsStack({ depositIndexer: true, secondChain: true });
  ({ settings: a, db, t } = stack);
  b = stack.second!.settings;
  merchant = await seedMerchant(db.sql, 'Two-chain merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 180_000);

afterAll(async () => stack?.stop());

type Session = {
  id: string;
  status: string;
  chainId: number;
  acceptedChainIds: number[];
  transactionChainId: number | null;
  transactionHash: string | null;
  amountRefundable: string;
  deposit: { address: Address; amountReceived: string; networks: { chainId: number; paymentUri: string }[] };
};
const headers = () => ({ authorization: `Bearer ${merchant.secretKey}` });

async function createSession(payload: Record<string, unknown>): Promise<Session> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: headers(), payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const getSession = async (id: string): Promise<Session> =>
  (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: headers() })).json();

async function transferOn(s: ChainSettings, to: Address, value: bigint): Promise<string> {
  const wallet = createWalletClient({ account: payer, chain: chainDefinition(s.chainId, s.rpcUrl), transport: http(s.rpcUrl) });
  const hash = await wallet.writeContract({ address: s.token, abi: erc20Abi, functionName: 'transfer', args: [to, value], gas: 200_000n });
  expect((await waitForDevReceipt(clientOf(s), hash)).status).toBe('success');
  return hash;
}
const balanceOn = (s: ChainSettings, who: Address) =>
  clientOf(s).readContract({ address: s.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const depositRows = (sessionId: string) =>
  db.sql<{ chainId: string; status: string; sweptAt: Date | null }[]>`
    select chain_id::text as "chainId", status, swept_at as "sweptAt" from deposits where payment_session_id = ${sessionId} order by id`;

describe('payment sessions on several chains of a mode', () => {
  it('accepts every chain of the mode by default, one deposit address with a payment URI per network', async () => {
    const session = await createSession({ amount: '1000000' });
    expect(session.acceptedChainIds).toEqual([a.chainId, CHAIN_B_ID]);
    expect(session.chainId).toBe(a.chainId);
    expect(session.deposit.networks.map((n) => n.paymentUri)).toEqual([
      `ethereum:${a.token}@${a.chainId}/transfer?address=${session.deposit.address}&uint256=1000000`,
      `ethereum:${b.token}@${CHAIN_B_ID}/transfer?address=${session.deposit.address}&uint256=1000000`,
    ]);
    const restricted = await createSession({ amount: '1000000', acceptedChainIds: [CHAIN_B_ID] });
    expect(restricted).toMatchObject({ acceptedChainIds: [CHAIN_B_ID], chainId: CHAIN_B_ID });
  });

  it("the account's default of accepted chains: read, set per mode, validated, used when a session names none", async () => {
    const own = await seedMerchant(db.sql, 'Chain-B-only merchant');
    await setPayoutAddress(db.sql, own.merchantId, payout);
    const auth = { authorization: `Bearer ${own.secretKey}` };
    const read = await t.app.inject({ method: 'GET', url: '/v1/merchants/me/accepted-chains', headers: auth });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      object: 'accepted_chains',
      livemode: false,
      acceptedChainIds: null,
      chains: [
        { chainId: a.chainId, accepted: true },
        { chainId: CHAIN_B_ID, accepted: true },
      ],
    });
    // A live chain id already chosen in the other mode stays when test mode's part is replaced.
    await db.sql`update merchants set accepted_chain_ids = '{8453}' where id = ${own.merchantId}`;

    const bad = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/accepted-chains',
      headers: auth,
      payload: { acceptedChainIds: [CHAIN_B_ID, 8453] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', param: 'acceptedChainIds.1' });
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/accepted-chains',
      headers: auth,
      payload: { acceptedChainIds: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({ code: 'invalid_request', param: 'acceptedChainIds' });
    expect((await db.sql`select accepted_chain_ids::text[] as ids from merchants where id = ${own.merchantId}`)[0]!.ids).toEqual(['8453']);

    const set = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/accepted-chains',
      headers: auth,
      payload: { acceptedChainIds: [CHAIN_B_ID] },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      acceptedChainIds: [CHAIN_B_ID],
      chains: [
        { chainId: a.chainId, accepted: false },
        { chainId: CHAIN_B_ID, accepted: true },
      ],
    });
    expect((await db.sql`select accepted_chain_ids::text[] as ids from merchants where id = ${own.merchantId}`)[0]!.ids).toEqual([
      '8453',
      String(CHAIN_B_ID),
    ]);
    // A session that names no chains takes the setting; one naming a chain outside it is refused.
    const created = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth, payload: { amount: '1000000' } });
    expect(created.json()).toMatchObject({ acceptedChainIds: [CHAIN_B_ID], chainId: CHAIN_B_ID });
    const outside = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: auth,
      payload: { amount: '1000000', acceptedChainIds: [a.chainId] },
    });
    expect(outside.json().error).toMatchObject({ code: 'invalid_request', param: 'acceptedChainIds.0' });

    // The other mode's part restricts nothing here: a setting naming only a live chain leaves test sessions free.
    expect(resolveAcceptedChains(stack.config, false, [a.chainId], ['8453']).map((c) => c.chainId)).toEqual([a.chainId]);

    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchants/me/accepted-chains',
      headers: auth,
      payload: { acceptedChainIds: null },
    });
    expect(cleared.json()).toMatchObject({ acceptedChainIds: null, chains: [{ accepted: true }, { accepted: true }] });
    expect((await db.sql`select accepted_chain_ids::text[] as ids from merchants where id = ${own.merchantId}`)[0]!.ids).toEqual(['8453']);
    // A key without the payment-session scopes is refused.
    expect((await t.app.inject({ method: 'GET', url: '/v1/merchants/me/accepted-chains' })).statusCode).toBe(401);
  });

  it('refuses a chain the mode lacks with the error envelope and creates nothing', async () => {
    const before = await db.sql`select count(*)::int as n from payment_sessions`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: headers(),
      payload: { amount: '1000000', acceptedChainIds: [a.chainId, 8453] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'invalid_request',
      param: 'acceptedChainIds.1',
      details: { issues: [{ path: 'acceptedChainIds.1' }] },
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/payment-sessions',
      headers: headers(),
      payload: { amount: '1000000', acceptedChainIds: ['x'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
    expect(await db.sql`select count(*)::int as n from payment_sessions`).toEqual(before);
  });

  it('a transfer on chain B completes the session and is swept to the payout address on chain B', async () => {
    const session = await createSession({ amount: '1000000' });
    const payoutBefore = await balanceOn(b, payout);
    const hash = await transferOn(b, session.deposit.address, 1_000_000n);
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    expect(done).toMatchObject({ transactionHash: hash, transactionChainId: CHAIN_B_ID });
    await until(
      () => depositRows(session.id),
      (rows) => rows[0]?.sweptAt != null,
      'swept',
    );
    expect(await balanceOn(b, payout)).toBe(payoutBefore + 1_000_000n);
    const txs = (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}/transactions`, headers: headers() })).json();
    expect(txs.data.map((x: { kind: string; chainId: number }) => [x.kind, x.chainId])).toEqual([
      ['deposit', CHAIN_B_ID],
      ['sweep', CHAIN_B_ID],
    ]);
  });

  it('half on chain A and half on chain B completes the session once', async () => {
    const session = await createSession({ amount: '2000000' });
    await transferOn(a, session.deposit.address, 1_000_000n);
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '1000000',
      'half received',
    );
    expect((await getSession(session.id)).status).toBe('open');
    await transferOn(b, session.deposit.address, 1_000_000n);
    await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    await until(
      () => depositRows(session.id),
      (rows) => rows.length === 2 && rows.every((r) => r.sweptAt !== null),
      'both swept',
    );
    expect((await depositRows(session.id)).map((r) => [r.chainId, r.status]).sort()).toEqual([
      [String(a.chainId), 'credited'],
      [String(CHAIN_B_ID), 'credited'],
    ]);
    const completed = await db.sql`select 1 from events where type = 'payment.completed' and data->'object'->>'id' = ${session.id}`;
    expect(completed).toHaveLength(1);
  });

  it('a deposit on a configured chain the session does not accept is a late deposit, swept on its chain and refundable', async () => {
    const session = await createSession({ amount: '1000000', acceptedChainIds: [a.chainId] });
    await transferOn(b, session.deposit.address, 1_000_000n);
    await until(
      () => depositRows(session.id),
      (rows) => rows[0]?.status === 'late' && rows[0].sweptAt !== null,
      'late and swept',
    );
    const now = await getSession(session.id);
    expect(now).toMatchObject({ status: 'open', amountRefundable: '1000000' });
    expect(now.deposit.amountReceived).toBe('0');
    const late = await db.sql`select 1 from events where type = 'payment.late_deposit' and data->'object'->>'id' = ${session.id}`;
    expect(late).toHaveLength(1);
  });
});
