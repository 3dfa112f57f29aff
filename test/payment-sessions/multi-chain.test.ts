// Checkout on several chains of one mode (issue 39): two anvils with Circle's USDC and the contracts at
// the same addresses (same deployer), an indexer per chain, the real worker and the API. A session's
// deposit address is the same on both chains; a transfer on either accepted chain pays toward it, one on
// a configured chain it does not accept is a late deposit; each deposit is swept on its own chain. A payment relayed
// on chain B (the hosted checkout's pay route with the chain the customer chose) completes there, and its refund goes
// out on chain B from the refund allowance granted on chain B; what a stranger sends for the wrong chain is refused.
// A subscription enrolled on chain B (the chain the customer picked on the hosted enrolment route, or named to the API
// relay) is recorded by chain B's indexer with chain B, charged on B, and its renewal page reads chain B; enrolments
// for a chain the plan or mode does not offer, or signed for another chain, are refused and change nothing.
// A payout address of its own on chain B (set from the dashboard, refused for a stranger, a chain the mode lacks and
// a bad address): a session gets a deposit address per payout; each transfer is swept to the payout its receiving
// address was made for (chain B's on B, the account's on A, and the account's on B for A's address used on B);
// a relayed payment on B pays B's payout, and a refund of it draws on B's payout wallet's allowance.
import { type Address, type Hex, type PrivateKeyAccount, createTestClient, createWalletClient, erc20Abi, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { subscriptionManagerV2Of, type ChainSettings } from '../../src/chain/config.js';
import { subscriptionManagerAbi } from '../../src/chain/generated/contracts.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { insertNoticeIfAbsent } from '../../src/subscriptions/renewal-repo.js';
import { hashRenewalToken, newRenewalToken } from '../../src/subscriptions/renewals.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { PERMIT_TYPES, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { issueKey } from '../../src/api-keys/service.js';
import { SCOPES } from '../../src/api-keys/scopes.js';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { SECOND_CHAIN_ID } from '../support/chain.js';
import { resolveAcceptedChains } from '../../src/payment-sessions/accepted-chains.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';
import { signEnrolmentBody, type EnrolmentOffer } from '../support/enrolment-signing.js';
import { recordHistory } from '../support/histories.js';
import { depositSweepWorkflowId } from '../../workflows/deposit-sweep.js';
import { refundWorkflowId } from '../../workflows/refund.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';

const CHAIN_B_ID = SECOND_CHAIN_ID;
let stack: PaymentsStack;
let a: ChainSettings;
let b: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let idp: DevIdentityProvider;
const payout = DEV_ACCOUNTS.merchant.address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const payoutAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);

const clientOf = (s: ChainSettings) => (s === b ? stack.second!.pub : stack.pub);

beforeAll(async () => {
  // The dashboard's sessions (a payout address per chain is set from the dashboard only).
  idp = await startDevIdentityProvider();
  // One deposit indexer per chain, as the indexer process runs them.
  stack = await startPaymentsStack({
    depositIndexer: true,
    secondChain: true,
    subscriptions: true,
    appEnv: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl },
  });
  ({ settings: a, db, t } = stack);
  b = stack.second!.settings;
  merchant = await seedMerchant(db.sql, 'Two-chain merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await idp?.stop();
});

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
/**
 * The merchant's workflow runs the Temporal visibility list finds by `ChainId = <chainId>` (issue 39), once
 * every id of `expected` is among them (visibility is eventually consistent).
 */
async function runsOnChain(chainId: number, expected: string[]): Promise<string[]> {
  const query = `MerchantId = '${merchant.merchantId}' AND ChainId = ${chainId}`;
  return until(
    async () => {
      const ids: string[] = [];
      for await (const run of stack.temporal.client.workflow.list({ query })) ids.push(run.workflowId);
      return ids;
    },
    (ids) => expected.every((id) => ids.includes(id)),
    `${expected.join(', ')} found by ${query}`,
  );
}
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
    // The runs' ChainId: the one chain a session accepts; 0 (not yet known) for one that accepts both.
    expect(await runsOnChain(CHAIN_B_ID, [restricted.id])).not.toContain(session.id);
    expect(await runsOnChain(0, [session.id])).not.toContain(restricted.id);
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
    // Found by ChainId = B: the session's run (started with 0, it accepts both; the paying chain upserted with
    // `completed`) and the deposit's sweep (started with the deposit's chain); neither by chain A's id.
    const [deposit] = await db.sql<{ id: string }[]>`select id from deposits where payment_session_id = ${session.id}`;
    const sweep = depositSweepWorkflowId(deposit!.id);
    await runsOnChain(CHAIN_B_ID, [session.id, sweep]);
    const onA = await runsOnChain(a.chainId, []);
    expect(onA).not.toContain(session.id);
    expect(onA).not.toContain(sweep);
    await recordHistory(stack.temporal.client.workflow.getHandle(session.id), 'payment-session-completed-multi-chain', 'chain-id');
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

/** The payer's EIP-3009 authorization of `amount` to `to`, signed for `signedFor`'s USDC (its domain names the chain). */
async function authorizationFor(signedFor: ChainSettings, to: Address, amount: bigint, signer: PrivateKeyAccount = payer) {
  const now = (await clientOf(signedFor).getBlock()).timestamp;
  const message = { from: signer.address, to, value: amount, validAfter: now - 60n, validBefore: now + 3600n, nonce: randomNonce() };
  const signature = await signAuthorization(
    signer,
    await readDomain(clientOf(signedFor), signedFor.token),
    'TransferWithAuthorization',
    message,
  );
  const authorization = {
    ...message,
    value: amount.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
  };
  return { authorization, signature };
}
const payAtCheckout = (sessionId: string, payload: object) => t.app.inject({ method: 'POST', url: `/checkout/${sessionId}/pay`, payload });
const submissionsOf = (sessionId: string) =>
  db.sql<{ chainId: string; status: string }[]>`
    select chain_id::text as "chainId", status from relay_submissions where payment_session_id = ${sessionId} order by created_at`;

describe('money on chain B: relay, refunds, refund allowances', () => {
  let paidOnB: Session;

  it('a session paid by relay on chain B (the chain the customer chose at checkout) completes there, its submission on chain B', async () => {
    const session = await createSession({ amount: '1000000' });
    const [payoutOnA, payoutOnB] = await Promise.all([balanceOn(a, payout), balanceOn(b, payout)]);
    const signed = await authorizationFor(b, payout, 1_000_000n);
    const paid = await payAtCheckout(session.id, { chainId: CHAIN_B_ID, ...signed });
    expect(paid.statusCode, paid.body).toBe(200);
    paidOnB = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed',
    );
    expect(paidOnB.transactionChainId).toBe(CHAIN_B_ID);
    expect(await submissionsOf(session.id)).toEqual([{ chainId: String(CHAIN_B_ID), status: 'confirmed' }]);
    const sent =
      await db.sql`select chain_id::text as "chainId" from chain_transactions where purpose like 'relay:%' and transaction_hash = ${paidOnB.transactionHash}`;
    expect(sent).toEqual([{ chainId: String(CHAIN_B_ID) }]);
    expect(await balanceOn(b, payout)).toBe(payoutOnB + 1_000_000n);
    expect(await balanceOn(a, payout)).toBe(payoutOnA);
    // The relay submission's run carries chain B from its start, and the session's shows B once paid.
    const [submission] = await db.sql<{ idempotencyKey: string }[]>`
      select idempotency_key as "idempotencyKey" from relay_submissions where payment_session_id = ${session.id}`;
    const relayRun = relayWorkflowId({ merchantId: merchant.merchantId, livemode: false, idempotencyKey: submission!.idempotencyKey });
    await runsOnChain(CHAIN_B_ID, [relayRun, session.id]);
  });

  it("a stranger's wrong chain is refused before anything is sent: signed for A posted as B, a chain the session does not accept, one the mode lacks; then the same authorization pays on A", async () => {
    const session = await createSession({ amount: '700000' });
    const signedForA = await authorizationFor(a, payout, 700_000n);
    // Chain B's USDC domain names chain B: the signature over chain A's domain does not recover the payer there.
    const crossed = await payAtCheckout(session.id, { chainId: CHAIN_B_ID, ...signedForA });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().error).toMatchObject({ code: 'invalid_request', param: 'signature' });
    const unknown = await payAtCheckout(session.id, { chainId: 8453, ...signedForA });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
    const onlyA = await createSession({ amount: '700000', acceptedChainIds: [a.chainId] });
    const notAccepted = await payAtCheckout(onlyA.id, { chainId: CHAIN_B_ID, ...(await authorizationFor(b, payout, 700_000n)) });
    expect(notAccepted.statusCode).toBe(400);
    expect(notAccepted.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
    const bad = await payAtCheckout(session.id, { chainId: 'b', ...signedForA });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId', details: { issues: [{ path: 'chainId' }] } });
    expect([...(await submissionsOf(session.id)), ...(await submissionsOf(onlyA.id))]).toEqual([]);
    expect((await getSession(session.id)).status).toBe('open');
    expect((await getSession(onlyA.id)).status).toBe('open');

    // Relay on chain A (no chainId: the session's first chain) completes too.
    const paid = await payAtCheckout(session.id, signedForA);
    expect(paid.statusCode, paid.body).toBe(200);
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'completed on A',
    );
    expect(done.transactionChainId).toBe(a.chainId);
    expect(await submissionsOf(session.id)).toEqual([{ chainId: String(a.chainId), status: 'confirmed' }]);
  });

  it('the refund allowance is per chain: read and granted on chain B by a permit for chain B; a chain the mode lacks is refused', async () => {
    const operator = refundOperatorOf(b)!;
    const read = async (query: string) => t.app.inject({ method: 'GET', url: `/v1/refunds/allowance${query}`, headers: headers() });
    const onA = (await read('')).json();
    const before = (await read(`?chainId=${CHAIN_B_ID}`)).json();
    expect(onA).toMatchObject({ chainId: a.chainId, permit: { domain: { chainId: a.chainId } } });
    expect(before).toMatchObject({ chainId: CHAIN_B_ID, owner: payout, spender: operator, permit: { domain: { chainId: CHAIN_B_ID } } });
    const unknown = await read('?chainId=8453');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });

    const deadline = (await clientOf(b).getBlock()).timestamp + 3600n;
    const permitFor = (allowance: { permit: { domain: { chainId: number }; nonce: string } }) =>
      payoutAccount.signTypedData({
        domain: { ...allowance.permit.domain, chainId: BigInt(allowance.permit.domain.chainId) } as never,
        types: PERMIT_TYPES,
        primaryType: 'Permit',
        message: { owner: payout, spender: operator, value: 5_000_000n, nonce: BigInt(allowance.permit.nonce), deadline },
      });
    const grant = (chainId: number, signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/refunds/allowance/permit',
        headers: headers(),
        payload: { chainId, value: '5000000', deadline: deadline.toString(), signature },
      });
    // A permit signed for chain A's USDC does not grant anything on chain B (nothing is sent).
    const crossed = await grant(CHAIN_B_ID, await permitFor(onA));
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().error).toMatchObject({ code: 'invalid_request', param: 'signature' });
    const granted = await grant(CHAIN_B_ID, await permitFor(before));
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ chainId: CHAIN_B_ID, allowance: '5000000' });
    expect((await read('')).json().allowance).toBe(onA.allowance);
  });

  it('a refund of a chain-B payment goes out on chain B to the payer; naming another chain is refused and creates nothing', async () => {
    const refundsBefore = await db.sql`select count(*)::int as n from refunds`;
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: headers(),
      payload: { paymentSessionId: paidOnB.id, amount: '400000', chainId: a.chainId },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'invalid_request', param: 'chainId' });
    expect(await db.sql`select count(*)::int as n from refunds`).toEqual(refundsBefore);

    const [payerOnA, payerOnB] = await Promise.all([balanceOn(a, payer.address), balanceOn(b, payer.address)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: headers(),
      payload: { paymentSessionId: paidOnB.id, amount: '400000', chainId: CHAIN_B_ID },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'processing', method: 'allowance', chainId: CHAIN_B_ID });
    const id = res.json().id as string;
    const done = await until(
      async () => (await t.app.inject({ method: 'GET', url: `/v1/refunds/${id}`, headers: headers() })).json(),
      (r) => r.status === 'succeeded',
      'refund succeeded',
    );
    expect(done.chainId).toBe(CHAIN_B_ID);
    await runsOnChain(CHAIN_B_ID, [refundWorkflowId(id)]);
    expect(await balanceOn(b, payer.address)).toBe(payerOnB + 400_000n);
    expect(await balanceOn(a, payer.address)).toBe(payerOnA);
    const sent = await db.sql`select chain_id::text as "chainId" from chain_transactions where purpose = ${`refund:${id}`}`;
    expect(sent).toEqual([{ chainId: String(CHAIN_B_ID) }]);
    const events = await db.sql<{ type: string; chainId: number }[]>`
      select type, (data->'object'->>'chainId')::int as "chainId" from events where data->'object'->>'id' = ${id} order by created_at, id`;
    expect(events).toEqual([
      { type: 'refund.created', chainId: CHAIN_B_ID },
      { type: 'refund.succeeded', chainId: CHAIN_B_ID },
    ]);
  });
});

describe('payout balances per chain', () => {
  it("lists the payout address's USDC on each chain of the mode, read from that chain; none without a payout address", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/balances', headers: headers() });
    expect(res.statusCode, res.body).toBe(200);
    const [onA, onB] = await Promise.all([balanceOn(a, payout), balanceOn(b, payout)]);
    expect(onA).not.toBe(onB);
    expect(res.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'payout_balance',
          chainId: a.chainId,
          network: expect.any(String),
          token: a.token,
          payoutAddress: payout,
          amount: onA.toString(),
          unavailable: false,
        },
        {
          object: 'payout_balance',
          chainId: CHAIN_B_ID,
          network: expect.any(String),
          token: b.token,
          payoutAddress: payout,
          amount: onB.toString(),
          unavailable: false,
        },
      ],
    });
    const stranger = await seedMerchant(db.sql, 'No payout yet');
    const none = await t.app.inject({ method: 'GET', url: '/v1/balances', headers: { authorization: `Bearer ${stranger.secretKey}` } });
    expect(none.json().data.map((x: { amount: string | null }) => x.amount)).toEqual([null, null]);
  });
});

// Issue 39, item 4: the customer picks the chain at enrolment (the hosted page and the API relay), and the
// subscription lives, is charged and is renewed on that chain.
describe('subscriptions on the chain the customer picks at enrolment', () => {
  type Offer = EnrolmentOffer & {
    chainId: number;
    chains: { chainId: number; network: string; token: string; addChain: unknown }[];
    managerDomain: { chainId: number; verifyingContract: string };
  };
  let bothChains: string;
  let onlyA: string;
  let enrolledOnB: { id: string; amount: string };

  const createPlan = async (payload: Record<string, unknown>): Promise<string> => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/subscription-plans', headers: headers(), payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  };
  const offerOf = (planId: string, chainId?: number | string) =>
    t.app.inject({ method: 'GET', url: `/checkout/plans/${planId}/enrolment${chainId === undefined ? '' : `?chainId=${chainId}`}` });
  const offerJson = async (planId: string, chainId?: number): Promise<Offer> => {
    const res = await offerOf(planId, chainId);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const enrol = (planId: string, payload: object) => t.app.inject({ method: 'POST', url: `/checkout/plans/${planId}/enrol`, payload });
  const relaySubscription = (payload: object, key: string) =>
    t.app.inject({ method: 'POST', url: '/v1/relay/subscriptions', headers: { ...headers(), 'idempotency-key': key }, payload });
  const expectRefused = (res: { statusCode: number; body: string; json: () => any }, param: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
  };
  const enrolmentUsed = (s: ChainSettings, subscriber: Address, nonce: Hex) =>
    clientOf(s).readContract({
      address: subscriptionManagerV2Of(s),
      abi: subscriptionManagerAbi,
      functionName: 'enrolmentNonceUsed',
      args: [subscriber, nonce],
    });

  /**
   * The subscriber's permit and Enrolment for `offer`'s terms, each signed for a chain: the permit over `permit`'s USDC
   * domain (at its nonce there), the Enrolment over the manager's domain on `enrolment`; valid for an hour of its chain.
   */
  async function signedEnrolment(
    offer: Offer,
    subscriber: PrivateKeyAccount,
    signedFor: { permit: ChainSettings; enrolment: ChainSettings },
  ) {
    const on = (s: ChainSettings) => ({ client: clientOf(s), token: s.token });
    const deadline = (await clientOf(signedFor.enrolment).getBlock()).timestamp + 3600n;
    return signEnrolmentBody(offer, subscriber, { permit: on(signedFor.permit), enrolment: on(signedFor.enrolment) }, deadline);
  }
  const subscriptionsOf = (subscriber: Address) =>
    db.sql<{ id: string; chainId: string; planId: string; amount: string }[]>`
      select id, chain_id::text as "chainId", plan_id as "planId", amount::text as amount from subscriptions
      where subscriber_address = ${subscriber.toLowerCase()}`;
  const firstCharge = async (subscriptionId: string) =>
    (
      await db.sql<{ status: string; txHash: Hex | null; chainId: string }[]>`
        select status, tx_hash as "txHash", chain_id::text as "chainId" from subscription_charges
        where subscription_id = ${subscriptionId} and period_index = 0`
    )[0];
  const subscriptionSubmissions = () =>
    db.sql<{ chainId: string; key: string }[]>`
      select chain_id::text as "chainId", idempotency_key as key from relay_submissions
      where merchant_id = ${merchant.merchantId} and kind = 'subscription' order by created_at`;
  // The relay's transactions only (src/relay/relayer.ts, relayPurpose): the worker may still be charging or sweeping
  // for earlier tests on the same chains meanwhile, which a count of every transaction would catch.
  const sentOn = async (chainId: number) =>
    Number((await db.sql`select count(*)::int as n from chain_transactions where chain_id = ${chainId} and purpose like 'relay:%'`)[0]!.n);

  beforeAll(async () => {
    // Enrolments are matched to the merchant by the address they pay.
    await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: payout });
    bothChains = await createPlan({ name: 'Both chains', amount: '2000000', interval: 'monthly' });
    onlyA = await createPlan({ name: 'Chain A only', amount: '3000000', interval: 'monthly', chainIds: [a.chainId] });
  });

  it("the enrolment offer is the chosen chain's (manager, domain, token), lists the plan's chains, and refuses a chain the plan or mode does not offer", async () => {
    const first = await offerJson(bothChains);
    expect(first.chainId).toBe(a.chainId);
    expect(first.managerDomain.chainId).toBe(a.chainId);
    expect(first.chains).toEqual([
      { chainId: a.chainId, network: `Anvil (local chain ${a.chainId})`, token: a.token, addChain: null },
      { chainId: CHAIN_B_ID, network: `Anvil (local chain ${CHAIN_B_ID})`, token: b.token, addChain: null },
    ]);
    const onB = await offerJson(bothChains, CHAIN_B_ID);
    expect(onB).toMatchObject({ chainId: CHAIN_B_ID, managerDomain: { chainId: CHAIN_B_ID }, terms: { token: b.token } });
    expect(onB.subscriptionManager).toBe(subscriptionManagerV2Of(b));
    expect((await offerJson(onlyA)).chains.map((c) => c.chainId)).toEqual([a.chainId]);

    expectRefused(await offerOf(onlyA, CHAIN_B_ID), 'chainId');
    expectRefused(await offerOf(bothChains, 8453), 'chainId');
    const malformed = await offerOf(bothChains, 'b');
    expectRefused(malformed, 'chainId');
    expect(malformed.json().error.details.issues.map((i: { path: string }) => i.path)).toEqual(['chainId']);
  });

  it('enrolled on chain B from the hosted page: relayed on B, its status says B, recorded with chain B and charged on B', async () => {
    const subscriber = privateKeyToAccount(generatePrivateKey());
    await transferOn(b, subscriber.address, 10_000_000n);
    const [payoutOnA, payoutOnB] = await Promise.all([balanceOn(a, payout), balanceOn(b, payout)]);
    const body = await signedEnrolment(await offerJson(bothChains, CHAIN_B_ID), subscriber, { permit: b, enrolment: b });

    const posted = await enrol(bothChains, { chainId: CHAIN_B_ID, ...body });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ object: 'checkout_enrolment', chainId: CHAIN_B_ID });
    const status = await until(
      async () => (await t.app.inject({ method: 'GET', url: `/checkout/plans/${bothChains}/enrolments/${body.enrolment.nonce}` })).json(),
      (s) => s.submissionStatus !== 'pending' && s.submissionStatus !== 'submitted',
      'the enrolment confirmed',
    );
    expect(status).toMatchObject({ submissionStatus: 'confirmed', chainId: CHAIN_B_ID });
    expect(await enrolmentUsed(b, subscriber.address, body.enrolment.nonce)).toBe(true);
    expect(await enrolmentUsed(a, subscriber.address, body.enrolment.nonce)).toBe(false);

    const [subscription] = await until(
      () => subscriptionsOf(subscriber.address),
      (rows) => rows.length > 0,
      'the subscription recorded by chain B’s indexer',
    );
    expect(subscription).toMatchObject({ chainId: String(CHAIN_B_ID), planId: bothChains, amount: '2000000' });
    const charge = await until(
      () => firstCharge(subscription!.id),
      (c) => c?.status === 'succeeded' || c?.status === 'failed',
      'period 0 charged',
    );
    expect(charge).toMatchObject({ status: 'succeeded', chainId: String(CHAIN_B_ID) });
    expect((await clientOf(b).getTransactionReceipt({ hash: charge!.txHash! })).status).toBe('success');
    await expect(clientOf(a).getTransactionReceipt({ hash: charge!.txHash! })).rejects.toThrow();
    expect(await balanceOn(b, subscriber.address)).toBe(8_000_000n);
    expect(await balanceOn(b, payout)).toBe(payoutOnB + 2_000_000n);
    expect(await balanceOn(a, payout)).toBe(payoutOnA);
    enrolledOnB = { id: subscription!.id, amount: subscription!.amount };
  });

  it('the renewal page of a chain-B subscription reads its allowance, permit nonce and token domain on chain B', async () => {
    const token = newRenewalToken();
    await insertNoticeIfAbsent(db.sql, {
      subscriptionId: enrolledOnB.id,
      runOutPeriodIndex: 12,
      allowance: 0n,
      tokenHash: hashRenewalToken(token),
    });
    const res = await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${enrolledOnB.id}/renewal?token=${token}` });
    expect(res.statusCode, res.body).toBe(200);
    const offer = res.json();
    const subscriber = offer.subscriber as Address;
    const allowanceOnB = await clientOf(b).readContract({
      address: b.token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [subscriber, subscriptionManagerV2Of(b)],
    });
    // The enrolment's permit used nonce 0 on chain B only; chain A's allowance for this wallet is none.
    expect(offer).toMatchObject({
      chainId: CHAIN_B_ID,
      addChain: null,
      token: b.token,
      tokenDomain: { chainId: CHAIN_B_ID },
      permitNonce: '1',
      allowance: allowanceOnB.toString(),
    });
    expect(allowanceOnB).toBe(22_000_000n);
  });

  it('a chain the plan or mode does not offer, and signatures for another chain than the one posted, are refused and change nothing; then the same signatures enrol on A', async () => {
    const subscriber = privateKeyToAccount(generatePrivateKey());
    await transferOn(a, subscriber.address, 10_000_000n);
    const signedForA = await signedEnrolment(await offerJson(bothChains), subscriber, { permit: a, enrolment: a });
    const permitForA = await signedEnrolment(await offerJson(bothChains, CHAIN_B_ID), subscriber, { permit: a, enrolment: b });
    const submissionsBefore = await subscriptionSubmissions();
    const sentBefore = await Promise.all([sentOn(a.chainId), sentOn(CHAIN_B_ID)]);

    // Chain B's manager domain names chain B: an Enrolment signed over chain A's does not recover the subscriber there.
    expectRefused(await enrol(bothChains, { chainId: CHAIN_B_ID, ...signedForA }), 'enrolment.signature');
    // The permit names the token's chain too: a permit for A with an Enrolment for B.
    expectRefused(await enrol(bothChains, { chainId: CHAIN_B_ID, ...permitForA }), 'permit.signature');
    expectRefused(await enrol(onlyA, { chainId: CHAIN_B_ID, ...signedForA }), 'chainId');
    expectRefused(await enrol(bothChains, { chainId: 8453, ...signedForA }), 'chainId');
    expectRefused(await enrol(bothChains, { chainId: 'b', ...signedForA }), 'chainId');
    // The API relay: the mode's chains, the same domains.
    expectRefused(await relaySubscription({ chainId: 8453, ...signedForA }, `enrol-unknown-${Date.now()}`), 'chainId');
    expectRefused(await relaySubscription({ chainId: CHAIN_B_ID, ...signedForA }, `enrol-crossed-${Date.now()}`), 'enrolment.signature');

    expect(await subscriptionSubmissions()).toEqual(submissionsBefore);
    expect(await Promise.all([sentOn(a.chainId), sentOn(CHAIN_B_ID)])).toEqual(sentBefore);
    expect(await enrolmentUsed(a, subscriber.address, signedForA.enrolment.nonce)).toBe(false);
    expect(await enrolmentUsed(b, subscriber.address, signedForA.enrolment.nonce)).toBe(false);

    // Nothing was spent: the same signatures, posted for the plan's first chain (no chainId), enrol on A.
    const posted = await enrol(bothChains, signedForA);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json().chainId).toBe(a.chainId);
    await until(
      () => enrolmentUsed(a, subscriber.address, signedForA.enrolment.nonce),
      (used) => used,
      'the enrolment on A',
    );
  });

  it('POST /v1/relay/subscriptions with chainId relays the enrolment on that chain', async () => {
    const subscriber = privateKeyToAccount(generatePrivateKey());
    await transferOn(b, subscriber.address, 2_000_000n);
    const body = await signedEnrolment(await offerJson(bothChains, CHAIN_B_ID), subscriber, { permit: b, enrolment: b });
    const key = `enrol-on-b-${Date.now()}`;
    const posted = await relaySubscription({ chainId: CHAIN_B_ID, ...body }, key);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ kind: 'subscription', chainId: CHAIN_B_ID });
    const done = await until(
      async () => (await t.app.inject({ method: 'GET', url: `/v1/relay/submissions/${key}`, headers: headers() })).json(),
      (s) => s.status === 'confirmed' || s.status === 'failed',
      'the relayed enrolment',
    );
    expect(done).toMatchObject({ status: 'confirmed', chainId: CHAIN_B_ID });
    expect(await enrolmentUsed(b, subscriber.address, body.enrolment.nonce)).toBe(true);
    expect(await enrolmentUsed(a, subscriber.address, body.enrolment.nonce)).toBe(false);
  });

  it("POST /v1/relay/subscriptions refuses the terms of a plan not offered on the enrolment's chain (named or the default) and sends nothing", async () => {
    const onlyB = await createPlan({ name: 'Chain B only', amount: '4000000', interval: 'monthly', chainIds: [CHAIN_B_ID] });
    const subscriber = privateKeyToAccount(generatePrivateKey());
    await Promise.all([transferOn(a, subscriber.address, 10_000_000n), transferOn(b, subscriber.address, 10_000_000n)]);
    // Well-signed enrolments for each chain: only the plan's chains make them refused.
    const withAmount = (offer: Offer, amount: string): Offer => ({ ...offer, terms: { ...offer.terms, amount }, permitValue: amount });
    const onlyAOnB = await signedEnrolment(withAmount(await offerJson(bothChains, CHAIN_B_ID), '3000000'), subscriber, {
      permit: b,
      enrolment: b,
    });
    const onlyBOnA = await signedEnrolment(withAmount(await offerJson(bothChains), '4000000'), subscriber, { permit: a, enrolment: a });
    const submissionsBefore = await subscriptionSubmissions();
    const sentBefore = await Promise.all([sentOn(a.chainId), sentOn(CHAIN_B_ID)]);

    const named = await relaySubscription({ chainId: CHAIN_B_ID, ...onlyAOnB }, `enrol-unoffered-${Date.now()}`);
    expectRefused(named, 'chainId');
    expect(named.json().error.message).toContain(`No plan with these terms is offered on chain ${CHAIN_B_ID}`);
    expect(named.json().error.message).toContain(`${onlyA} on ${a.chainId}`);
    // No chainId: the mode's first chain (A), where the plan is not offered either.
    const byDefault = await relaySubscription(onlyBOnA, `enrol-unoffered-default-${Date.now()}`);
    expectRefused(byDefault, 'chainId');
    expect(byDefault.json().error.message).toContain(`chain ${a.chainId} (no chainId was named: the default)`);
    expect(byDefault.json().error.message).toContain(`${onlyB} on ${CHAIN_B_ID}`);

    expect(await subscriptionSubmissions()).toEqual(submissionsBefore);
    expect(await Promise.all([sentOn(a.chainId), sentOn(CHAIN_B_ID)])).toEqual(sentBefore);
    expect(await enrolmentUsed(b, subscriber.address, onlyAOnB.enrolment.nonce)).toBe(false);
    expect(await enrolmentUsed(a, subscriber.address, onlyBOnA.enrolment.nonce)).toBe(false);
    expect(await subscriptionsOf(subscriber.address)).toEqual([]);
  });
});

/** The session's relay submissions as the relay records each look at the chain. */
const relayLooks = (sessionId: string) =>
  db.sql<{ chainId: string; status: string; confirmations: number; blockNumber: string | null }[]>`
    select chain_id::text as "chainId", status, confirmations, block_number::text as "blockNumber"
    from relay_submissions where payment_session_id = ${sessionId}`;

describe("each chain's own confirmations, and a reorg on chain B", () => {
  it("the relay confirms a payment on chain B only at B's confirmations (3), one on chain A at A's (1)", async () => {
    // Chain B's settings as the worker resolves them (the stack's config holds this object): B asks 3
    // confirmations for this test only, so the rest of the file keeps its one-block waits.
    b.confirmations = 3;
    try {
      const mineOnB = createTestClient({ mode: 'anvil', transport: http(b.rpcUrl) });
      const onB = await createSession({ amount: '300000' });
      const paid = await payAtCheckout(onB.id, { chainId: CHAIN_B_ID, ...(await authorizationFor(b, payout, 300_000n)) });
      expect(paid.statusCode, paid.body).toBe(200);
      const [mined] = await until(
        () => relayLooks(onB.id),
        (rows) => rows[0]?.blockNumber != null,
        'the payment mined on B',
      );
      expect(mined!.chainId).toBe(String(CHAIN_B_ID));
      // Each look the relay records below three confirmations says not yet; each block mined on B adds one.
      const waited: number[] = [];
      for (;;) {
        const due = Number((await clientOf(b).getBlockNumber()) - BigInt(mined!.blockNumber!) + 1n);
        const [look] = await until(
          () => relayLooks(onB.id),
          (rows) => rows[0]!.status === 'confirmed' || rows[0]!.confirmations >= Math.min(due, 3),
          `the relay seeing ${due} confirmations`,
        );
        if (look!.status === 'confirmed') {
          // At least three: other work of the file (charges, enrolments) may mine a block on B between two looks.
          expect(look!.confirmations).toBeGreaterThanOrEqual(3);
          break;
        }
        expect(look!.status).toBe('submitted');
        expect((await getSession(onB.id)).status).toBe('processing');
        waited.push(look!.confirmations);
        await mineOnB.mine({ blocks: 1 });
      }
      // It was seen, and held back, below three confirmations (A's one would have confirmed it at the first look).
      expect(waited.length).toBeGreaterThan(0);
      expect(waited.every((n) => n >= 1 && n < 3)).toBe(true);
      await until(
        () => getSession(onB.id),
        (s) => s.status === 'completed',
        'completed on B',
      );

      // Chain A still asks one: its payment confirms at its own block, with nothing mined after it.
      const onA = await createSession({ amount: '300000' });
      const paidOnA = await payAtCheckout(onA.id, await authorizationFor(a, payout, 300_000n));
      expect(paidOnA.statusCode, paidOnA.body).toBe(200);
      const [confirmedOnA] = await until(
        () => relayLooks(onA.id),
        (rows) => rows[0]?.status === 'confirmed',
        'confirmed on A',
      );
      expect(confirmedOnA).toMatchObject({ chainId: String(a.chainId), confirmations: 1 });
    } finally {
      b.confirmations = 1;
    }
  });

  it('a deposit on chain B reorged out is removed, the session falls back to what chain A paid, payment.deposit_reversed; A untouched', async () => {
    const session = await createSession({ amount: '1000000' });
    await transferOn(a, session.deposit.address, 200_000n);
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '200000',
      'credited on A',
    );
    const testB = createTestClient({ mode: 'anvil', transport: http(b.rpcUrl) });
    const snapshot = await testB.snapshot();
    await transferOn(b, session.deposit.address, 300_000n);
    await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '500000',
      'credited on B too',
    );
    // Chain B only: its blocks since the snapshot are replaced by three empty ones.
    await testB.revert({ id: snapshot });
    await testB.mine({ blocks: 3 });
    const after = await until(
      () => getSession(session.id),
      (s) => s.deposit.amountReceived === '200000',
      "chain B's deposit taken back out",
    );
    expect(after.status).toBe('open');
    expect((await depositRows(session.id)).map((r) => [r.chainId, r.status])).toEqual([
      [String(a.chainId), 'credited'],
      [String(CHAIN_B_ID), 'removed'],
    ]);
    const reversed = await db.sql<{ chainId: number }[]>`
      select (data->'deposit'->>'chainId')::int as "chainId" from events
      where type = 'payment.deposit_reversed' and data->'object'->>'id' = ${session.id}`;
    expect(reversed).toEqual([{ chainId: CHAIN_B_ID }]);
    // A's deposit goes on as if nothing happened: credited, and swept on A.
    await until(
      () => depositRows(session.id),
      (rows) => rows[0]!.status === 'credited' && rows[0]!.sweptAt !== null,
      "A's deposit swept",
    );
  });
});

// Issue 39, item 4: a payout address per chain. The merchant is a dashboard user (the setting is dashboard only).
describe('a payout address of its own on chain B', () => {
  type PayoutSession = Omit<Session, 'deposit'> & {
    payTo: Address;
    deposit: Omit<Session['deposit'], 'networks'> & {
      networks: { chainId: number; address: Address; payTo: Address; paymentUri: string }[];
    };
  };
  const accountPayoutKey = privateKeyToAccount(generatePrivateKey());
  const chainBPayoutKey = privateKeyToAccount(generatePrivateKey());
  const accountPayout = accountPayoutKey.address;
  const chainBPayout = chainBPayoutKey.address;
  let dashboard: string;
  let secretKey: string;
  let merchantId: string;
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const setChainPayout = (chainId: number | string, payoutAddress: unknown, key = dashboard) =>
    t.app.inject({ method: 'PUT', url: `/v1/merchants/me/payout-addresses/${chainId}`, headers: auth(key), payload: { payoutAddress } });
  const storedPayouts = () =>
    db.sql`select merchant_id, livemode, chain_id::int as chain_id, payout_address from merchant_chain_payouts order by merchant_id, chain_id`;
  const expectRefused = (res: { statusCode: number; body: string; json: () => any }, param: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
  };
  const sessionOf = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(secretKey), payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PayoutSession;
  };
  const sessionNow = async (id: string): Promise<PayoutSession> =>
    (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: auth(secretKey) })).json();
  const sessionDeposits = (sessionId: string) =>
    db.sql<{ chainId: number; depositAddress: Address; payoutAddress: Address; amount: string; sweptAt: Date | null }[]>`
      select chain_id::int as "chainId", deposit_address as "depositAddress", payout_address as "payoutAddress",
             amount::text as amount, swept_at as "sweptAt"
      from deposits where payment_session_id = ${sessionId} order by id`;

  beforeAll(async () => {
    dashboard = await idp.mintToken(`chain_payout_${Date.now()}`, { email: 'chain-payout@example.com', name: 'Chain payout' });
    const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: auth(dashboard) });
    expect(sync.statusCode, sync.body).toBe(200);
    merchantId = sync.json().id;
    // The account's payout address as onboarding leaves it: set, and registered as the merchant's on every chain.
    await setPayoutAddress(db.sql, merchantId, accountPayout);
    await addMerchantChainAddress(db.sql, { merchantId, livemode: false, address: accountPayout });
    secretKey = (await issueKey(db.sql, { merchantId, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'test' })).secret;
  });

  it("is set from the dashboard for one chain of the mode and read by any secret key; a stranger's attempts are refused and change nothing", async () => {
    const before = await storedPayouts();
    // A secret key may read the setting but not change it (where money goes is account security).
    const bySecretKey = await setChainPayout(CHAIN_B_ID, chainBPayout, secretKey);
    expect(bySecretKey.statusCode, bySecretKey.body).toBe(403);
    // Another merchant's key changes its own account only; here, even that is refused (a secret key).
    expect((await setChainPayout(CHAIN_B_ID, chainBPayout, merchant.secretKey)).statusCode).toBe(403);
    expect((await setChainPayout(CHAIN_B_ID, chainBPayout, '')).statusCode).toBe(401);
    expectRefused(await setChainPayout(8453, chainBPayout), 'chainId');
    expectRefused(await setChainPayout('b', chainBPayout), 'chainId');
    // Not EIP-55 (mixed case with a wrong checksum), the zero address, another merchant's payout address.
    const badChecksum =
      chainBPayout.slice(0, 2) +
      [...chainBPayout.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    expectRefused(await setChainPayout(CHAIN_B_ID, badChecksum), 'payoutAddress');
    expectRefused(await setChainPayout(CHAIN_B_ID, '0x0000000000000000000000000000000000000000'), 'payoutAddress');
    await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: payout });
    expectRefused(await setChainPayout(CHAIN_B_ID, payout), 'payoutAddress');
    expectRefused(await setChainPayout(CHAIN_B_ID, { address: chainBPayout }), 'payoutAddress');
    expect(await storedPayouts()).toEqual(before);

    const set = await setChainPayout(CHAIN_B_ID, chainBPayout);
    expect(set.statusCode, set.body).toBe(200);
    const expected = [
      { object: 'chain_payout', livemode: false, chainId: a.chainId, payoutAddress: accountPayout, source: 'account' },
      { object: 'chain_payout', livemode: false, chainId: CHAIN_B_ID, payoutAddress: chainBPayout, source: 'chain' },
    ];
    expect(set.json()).toMatchObject({ object: 'list', data: expected });
    const read = await t.app.inject({ method: 'GET', url: '/v1/merchants/me/payout-addresses', headers: auth(secretKey) });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject(expected);
    // Another merchant's key reads its own payouts, never this one's.
    const theirs = await t.app.inject({ method: 'GET', url: '/v1/merchants/me/payout-addresses', headers: auth(merchant.secretKey) });
    expect(theirs.json().data.map((p: { payoutAddress: string }) => p.payoutAddress)).toEqual([payout, payout]);
    const balances = (await t.app.inject({ method: 'GET', url: '/v1/balances', headers: auth(secretKey) })).json();
    expect(balances.data.map((p: { payoutAddress: string }) => p.payoutAddress)).toEqual([accountPayout, chainBPayout]);
  });

  it("a session gets an address per payout: a transfer is swept to the payout its receiving address was made for (A's address used on B: the account's payout on B)", async () => {
    const session = await sessionOf({ amount: '3000000' });
    const [onA, onB] = session.deposit.networks;
    expect(session.payTo).toBe(accountPayout);
    expect(onA).toMatchObject({ chainId: a.chainId, address: session.deposit.address, payTo: accountPayout });
    expect(onB).toMatchObject({ chainId: CHAIN_B_ID, payTo: chainBPayout });
    expect(onB!.address).not.toBe(onA!.address);
    expect(onB!.paymentUri).toBe(`ethereum:${b.token}@${CHAIN_B_ID}/transfer?address=${onB!.address}&uint256=3000000`);
    const checkout = (await t.app.inject({ method: 'GET', url: `/v1/checkout/sessions/${session.id}` })).json();
    expect(checkout.chains.map((c: { payTo: string }) => c.payTo)).toEqual([accountPayout, chainBPayout]);

    // B's address on B, A's address on A, and A's address on B (not what the page shows for B).
    await Promise.all([transferOn(a, onA!.address, 1_000_000n), transferOn(b, onB!.address, 1_000_000n)]);
    await transferOn(b, onA!.address, 1_000_000n);
    await until(
      () => sessionNow(session.id),
      (s) => s.status === 'completed',
      'completed by the three transfers',
    );
    const rows = await until(
      () => sessionDeposits(session.id),
      (r) => r.length === 3 && r.every((d) => d.sweptAt !== null),
      'the three deposits swept',
    );
    const byRoute = rows.map((d) => [d.chainId, d.depositAddress, d.payoutAddress]).sort();
    expect(byRoute).toEqual(
      [
        [a.chainId, onA!.address, accountPayout],
        [CHAIN_B_ID, onB!.address, chainBPayout],
        [CHAIN_B_ID, onA!.address, accountPayout],
      ].sort(),
    );
    // Where the money is: each forwarder emptied into the payout its salt binds, on the chain it came in on.
    expect(await balanceOn(b, chainBPayout)).toBe(1_000_000n);
    expect(await balanceOn(a, accountPayout)).toBe(1_000_000n);
    expect(await balanceOn(b, accountPayout)).toBe(1_000_000n);
    expect(await balanceOn(a, chainBPayout)).toBe(0n);
    for (const [s, address] of [
      [a, onA!.address],
      [b, onA!.address],
      [b, onB!.address],
    ] as const)
      expect(await balanceOn(s, address)).toBe(0n);
  });

  it("a payment relayed on chain B pays B's payout; its refund goes out on B from B's payout wallet's allowance", async () => {
    const session = await sessionOf({ amount: '1000000' });
    // Signed to the account's payout for a payment on B: not where this session is paid on B.
    const toAccount = await payAtCheckout(session.id, { chainId: CHAIN_B_ID, ...(await authorizationFor(b, accountPayout, 1_000_000n)) });
    expectRefused(toAccount, 'authorization.to');
    expect(await submissionsOf(session.id)).toEqual([]);

    const before = await balanceOn(b, chainBPayout);
    const paid = await payAtCheckout(session.id, { chainId: CHAIN_B_ID, ...(await authorizationFor(b, chainBPayout, 1_000_000n)) });
    expect(paid.statusCode, paid.body).toBe(200);
    await until(
      () => sessionNow(session.id),
      (s) => s.status === 'completed',
      'completed on B',
    );
    expect(await balanceOn(b, chainBPayout)).toBe(before + 1_000_000n);

    // The allowance on B is granted by B's payout wallet (on A, by the account's).
    const operator = refundOperatorOf(b)!;
    const allowanceOn = async (chainId: number) =>
      (await t.app.inject({ method: 'GET', url: `/v1/refunds/allowance?chainId=${chainId}`, headers: auth(secretKey) })).json();
    expect((await allowanceOn(a.chainId)).owner).toBe(accountPayout);
    const onB = await allowanceOn(CHAIN_B_ID);
    expect(onB).toMatchObject({ chainId: CHAIN_B_ID, owner: chainBPayout, spender: operator });
    const deadline = (await clientOf(b).getBlock()).timestamp + 3600n;
    const signature = await chainBPayoutKey.signTypedData({
      domain: { ...onB.permit.domain, chainId: BigInt(onB.permit.domain.chainId) },
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: chainBPayout, spender: operator, value: 1_000_000n, nonce: BigInt(onB.permit.nonce), deadline },
    });
    const granted = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds/allowance/permit',
      headers: auth(secretKey),
      payload: { chainId: CHAIN_B_ID, value: '1000000', deadline: deadline.toString(), signature },
    });
    expect(granted.statusCode, granted.body).toBe(200);

    const payerBefore = await balanceOn(b, payer.address);
    const refund = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(secretKey),
      payload: { paymentSessionId: session.id, amount: '400000', chainId: CHAIN_B_ID },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const id = refund.json().id as string;
    await until(
      async () => (await t.app.inject({ method: 'GET', url: `/v1/refunds/${id}`, headers: auth(secretKey) })).json(),
      (r) => r.status === 'succeeded' || r.status === 'failed',
      'the refund sent',
    ).then((r) => expect(r.status).toBe('succeeded'));
    expect(await balanceOn(b, payer.address)).toBe(payerBefore + 400_000n);
    expect(await balanceOn(b, chainBPayout)).toBe(before + 600_000n);
    expect((await allowanceOn(CHAIN_B_ID)).allowance).toBe('600000');
  });

  it("cleared, chain B pays the account's payout again for new sessions; a session made before keeps its addresses", async () => {
    const made = await sessionOf({ amount: '1000000' });
    const cleared = await setChainPayout(CHAIN_B_ID, null);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data[1]).toMatchObject({ chainId: CHAIN_B_ID, payoutAddress: accountPayout, source: 'account' });
    const fresh = await sessionOf({ amount: '1000000' });
    expect(fresh.deposit.networks.map((n) => [n.address, n.payTo])).toEqual([
      [fresh.deposit.address, accountPayout],
      [fresh.deposit.address, accountPayout],
    ]);
    expect((await sessionNow(made.id)).deposit.networks.map((n) => n.payTo)).toEqual([accountPayout, chainBPayout]);
  });
});
