// The relay end to end on a private anvil: the real app (pre-checks, submissions,
// idempotency), the real worker (relaySubmissionWorkflow on the Temporal dev
// server) and the real indexer code path.
import { type Address, type PublicClient, type TestClient, createPublicClient, createTestClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import {
  type Authorization,
  PERMIT_TYPES,
  randomNonce,
  readDomain,
  signAuthorization,
  signEnrolmentV2,
} from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { SUBSCRIPTION_MANAGER_V2_ADDRESS } from '../../src/chain/subscription-manager-v2.js';
import { createHookRegistry, hookPoints, type ChainEvent } from '../../src/indexer/hooks.js';
import { createIndexer } from '../../src/indexer/indexer.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let testClient: TestClient;
let token: Address;

const payout = DEV_ACCOUNTS.merchant.address;
const relayer = DEV_ACCOUNTS.relayer.address;
const payers = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey));
const [payerA, payerB, payerC, payerD, payerE] = payers as [
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
];
let keyCounter = 0;
let firstPaymentTx: string | undefined;
const newKey = () => `relay-test-${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  token = chain.info.token;
  pub = createPublicClient({
    chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
    transport: http(chain.info.rpcUrl),
    pollingInterval: 100,
  });
  testClient = createTestClient({ mode: 'anvil', transport: http(chain.info.rpcUrl) });
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql);
  await db.sql`update merchants set payout_address = ${payout} where id = ${merchant.merchantId}`;
});
afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

async function chainTime(): Promise<bigint> {
  return (await pub.getBlock()).timestamp;
}

async function authorization(signer: PrivateKeyAccount, overrides: Partial<Authorization> = {}, signWith = signer) {
  const now = await chainTime();
  const message: Authorization = {
    from: signer.address,
    to: payout,
    value: 2_500_000n,
    validAfter: now - 60n,
    validBefore: now + 3600n,
    nonce: randomNonce(),
    ...overrides,
  };
  const signature = await signAuthorization(signWith, await readDomain(pub, token), 'TransferWithAuthorization', message);
  return {
    authorization: {
      from: message.from,
      to: message.to,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
    signature,
  };
}

function relay(url: string, payload: unknown, key: string | undefined, secret = merchant.secretKey) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${secret}`, ...(key ? { 'idempotency-key': key } : {}) },
    payload: payload as object,
  });
}

/** The relay workflow's current shape, carried in the names of the histories recorded here. */
const HISTORY_SHAPE = 'base';

const relayHandle = (key: string) =>
  temporal.client.workflow.getHandle(relayWorkflowId({ merchantId: merchant.merchantId, livemode: false, idempotencyKey: key }));

async function settled(key: string, recordAs?: string) {
  const handle = relayHandle(key);
  await handle.result();
  if (recordAs) await recordHistory(handle, recordAs, HISTORY_SHAPE);
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/relay/submissions/${key}`,
    headers: { authorization: `Bearer ${merchant.secretKey}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const submissionCount = async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from relay_submissions`)[0]!.n;

describe('POST /v1/relay/payments', () => {
  it('relays a payer-signed authorization to confirmed and moves the balances', async () => {
    const body = await authorization(payerA);
    const [payerBefore, payoutBefore] = await Promise.all([balanceOf(payerA.address), balanceOf(payout)]);
    const key = newKey();
    const res = await relay('/v1/relay/payments', body, key);
    expect(res.statusCode).toBe(200);
    const accepted = res.json();
    expect(accepted).toMatchObject({
      object: 'relay_submission',
      idempotencyKey: key,
      kind: 'payment',
      livemode: false,
      chainId: chain.info.chainId,
    });
    expect(['pending', 'submitted', 'confirmed']).toContain(accepted.status);

    const done = await settled(key, 'relay-confirmed');
    expect(done).toMatchObject({ id: accepted.id, status: 'confirmed', failureCode: null, failureReason: null, requiredConfirmations: 1 });
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Number(done.blockNumber)).toBeGreaterThan(0);
    expect(done.confirmations).toBeGreaterThanOrEqual(1);
    firstPaymentTx = done.transactionHash;
    const receipt = await pub.getTransactionReceipt({ hash: done.transactionHash });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(relayer.toLowerCase());
    expect(await balanceOf(payerA.address)).toBe(payerBefore - 2_500_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore + 2_500_000n);
    // The ledger row is settled with the submission (one statement): the mined hash, outcome success.
    const ledgerRows = await db.sql<{ outcome: string | null; transactionHash: string }[]>`
      select outcome, transaction_hash as "transactionHash" from chain_transactions where purpose = ${`relay:${accepted.id}`}`;
    expect(ledgerRows).toEqual([{ outcome: 'success', transactionHash: done.transactionHash }]);

    // Same request, same key: the same submission (replayed), nothing sent again.
    const again = await relay('/v1/relay/payments', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(accepted.id);
    // The same authorization under a new key: refused before anything is sent.
    const before = await submissionCount();
    const other = await relay('/v1/relay/payments', body, newKey());
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toMatchObject({ code: 'invalid_request', param: 'authorization' });
    expect(other.json().error.message).toMatch(/already submitted/);
    expect(await submissionCount()).toBe(before);
  });

  it("answers not_found for an unknown submission, and for another mode's", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/relay/submissions/never-used',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'not_found', param: 'idempotencyKey' });
    const [{ key } = { key: '' }] = await db.sql<{ key: string }[]>`select idempotency_key as key from relay_submissions limit 1`;
    const live = await t.app.inject({
      method: 'GET',
      url: `/v1/relay/submissions/${key}`,
      headers: { authorization: `Bearer ${merchant.liveSecretKey}` },
    });
    expect(live.statusCode).toBe(404);
  });

  it('requires an Idempotency-Key', async () => {
    const res = await relay('/v1/relay/payments', await authorization(payerA), undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'Idempotency-Key' });
  });

  it('is for secret keys with relay_write only', async () => {
    const body = await authorization(payerA);
    const publishable = await relay('/v1/relay/payments', body, newKey(), merchant.publishableKey);
    expect(publishable.statusCode).toBe(403);
    const readOnly = await relay('/v1/relay/payments', body, newKey(), await merchant.keyWithScopes(['relay_read']));
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json().error.code).toBe('permission_denied');
    // Reads too: the whole /v1/relay namespace needs a secret key.
    const publishableRead = await t.app.inject({
      method: 'GET',
      url: '/v1/relay/submissions/some-key',
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
    });
    expect(publishableRead.statusCode).toBe(403);
    expect(publishableRead.json().error).toMatchObject({ code: 'permission_denied' });
    expect(publishableRead.json().error.message).toMatch(/secret API key/);
  });

  it('answers a clear error for live mode without a live chain, not a 500', async () => {
    const res = await relay('/v1/relay/payments', await authorization(payerA), newKey(), merchant.liveSecretKey);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/Live mode has no chain configured/);
  });

  it.each([
    ['expired', async () => authorization(payerA, { validAfter: 0n, validBefore: (await chainTime()) - 10n }), 'authorization.validBefore'],
    [
      'not yet valid',
      async () => authorization(payerA, { validAfter: (await chainTime()) + 3600n, validBefore: (await chainTime()) + 7200n }),
      'authorization.validAfter',
    ],
    ['signed by someone else', async () => authorization(payerA, {}, payerB), 'signature'],
    ['above the balance', async () => authorization(payerA, { value: 10n ** 15n }), 'authorization.value'],
    ['to another recipient', async () => authorization(payerA, { to: DEV_ACCOUNTS.operator.address }), 'authorization.to'],
  ])('refuses an authorization %s before anything is sent', async (_label, make, param) => {
    const body = await make();
    const [submissions, relayerNonce] = [await submissionCount(), await pub.getTransactionCount({ address: relayer })];
    const res = await relay('/v1/relay/payments', body, newKey());
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param });
    expect(await submissionCount()).toBe(submissions);
    expect(await pub.getTransactionCount({ address: relayer })).toBe(relayerNonce);
  });

  it('refuses an authorization whose nonce was already used on-chain', async () => {
    const body = await authorization(payerC);
    const first = newKey();
    await relay('/v1/relay/payments', body, first);
    await settled(first);
    // Delete our record of it: the on-chain check alone must refuse it.
    await db.sql`delete from chain_transactions where purpose like 'relay:%'`;
    await db.sql`delete from relay_submissions`;
    const res = await relay('/v1/relay/payments', body, newKey());
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'authorization.nonce' });
  });

  it('reports a transaction that cannot succeed as failed with the contract reason, not retried', async () => {
    // Two authorizations each worth the whole balance: both pass the pre-checks, only one can pay.
    const balance = await balanceOf(payerD.address);
    const [one, two] = [await authorization(payerD, { value: balance }), await authorization(payerD, { value: balance })];
    const [k1, k2] = [newKey(), newKey()];
    expect((await relay('/v1/relay/payments', one, k1)).statusCode).toBe(200);
    expect((await relay('/v1/relay/payments', two, k2)).statusCode).toBe(200);
    const results = [await settled(k1), await settled(k2)];
    expect(results.map((r) => r.status).sort()).toEqual(['confirmed', 'failed']);
    const failed = results.find((r) => r.status === 'failed')!;
    await recordHistory(relayHandle(failed.idempotencyKey), 'relay-failed', HISTORY_SHAPE);
    // Circle's USDC reverts with a string; it is named (src/chain/refusals.ts) and told as payment.failed.
    expect(failed.failureCode).toBe('insufficient_funds');
    expect(failed.failureReason).toMatch(/balance is lower than the amount/);
    const events = await db.sql<{ data: { object: { id: string; failureCode: string }; retry: string } }[]>`
      select data from events where type = 'payment.failed' and data->'object'->>'id' = ${failed.id}`;
    expect(events.map((e) => [e.data.object.failureCode, e.data.retry])).toEqual([['insufficient_funds', 'dunning']]);
    expect(await balanceOf(payerD.address)).toBe(0n);
  });

  describe('refuses at the door what USDC would refuse whatever is signed', () => {
    // As the issuer would: the blacklister and the pauser dev accounts call the real token.
    async function asUsdcRole(
      role: 'usdcBlacklister' | 'usdcPauser',
      functionName: 'blacklist' | 'unBlacklist' | 'pause' | 'unpause',
      args: readonly [Address] | readonly [],
    ) {
      const account = privateKeyToAccount(DEV_ACCOUNTS[role].privateKey);
      const wallet = createWalletClient({
        account,
        chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
        transport: http(chain.info.rpcUrl),
      });
      const hash = await wallet.writeContract({ address: token, abi: fiatTokenAbi, functionName, args } as never);
      await pub.waitForTransactionReceipt({ hash });
    }
    const payerF = payers[5]!;

    it.each([
      [
        'a blacklisted payer',
        'payer_blacklisted',
        'authorization.from',
        () => asUsdcRole('usdcBlacklister', 'blacklist', [payerF.address]),
        () => asUsdcRole('usdcBlacklister', 'unBlacklist', [payerF.address]),
      ],
      [
        'a blacklisted payout address',
        'merchant_blacklisted',
        'authorization.to',
        () => asUsdcRole('usdcBlacklister', 'blacklist', [payout]),
        () => asUsdcRole('usdcBlacklister', 'unBlacklist', [payout]),
      ],
      [
        'a paused token',
        'token_paused',
        'token',
        () => asUsdcRole('usdcPauser', 'pause', []),
        () => asUsdcRole('usdcPauser', 'unpause', []),
      ],
    ] as const)('%s: 400 with the refusal code, nothing recorded or sent', async (_label, refusalCode, param, apply, undo) => {
      const body = await authorization(payerF, { value: 1000n });
      await apply();
      try {
        const [submissions, relayerNonce] = [await submissionCount(), await pub.getTransactionCount({ address: relayer })];
        const res = await relay('/v1/relay/payments', body, newKey());
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'invalid_request', param, details: { refusalCode } });
        expect(await submissionCount()).toBe(submissions);
        expect(await pub.getTransactionCount({ address: relayer })).toBe(relayerNonce);
      } finally {
        await undo();
      }
      // Once lifted, the same authorization goes through.
      const key = newKey();
      expect((await relay('/v1/relay/payments', body, key)).statusCode).toBe(200);
      expect((await settled(key)).status).toBe('confirmed');
    });
  });

  it('serialises relayer nonces across concurrent submissions: all confirmed, nonces contiguous', async () => {
    const bodies = await Promise.all(Array.from({ length: 12 }, () => authorization(payerE, { value: 1000n })));
    const keys = bodies.map(() => newKey());
    const responses = await Promise.all(bodies.map((b, i) => relay('/v1/relay/payments', b, keys[i])));
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    const done = await Promise.all(keys.map((key) => settled(key)));
    expect(done.every((d) => d.status === 'confirmed')).toBe(true);
    const ids = done.map((d) => d.id);
    const nonces = (
      await db.sql<
        { nonce: string }[]
      >`select nonce::text from chain_transactions where purpose in ${db.sql(ids.map((id) => `relay:${id}`))}`
    )
      .map((r) => BigInt(r.nonce))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(nonces).toHaveLength(12);
    for (let i = 1; i < nonces.length; i++) expect(nonces[i]).toBe(nonces[i - 1]! + 1n);
  });
});

describe('POST /v1/relay/subscriptions', () => {
  it('submits permit + enrolment; SubscriptionCreated reaches the indexer hook exactly once', async () => {
    const subscriber = payerB;
    // New enrolments go to SubscriptionManagerV2 and sign its charge window.
    const manager = chain.info.subscriptionManagerV2!;
    expect(manager).toBe(SUBSCRIPTION_MANAGER_V2_ADDRESS);
    const now = await chainTime();
    const terms = {
      token,
      merchant: payout,
      operator: DEV_ACCOUNTS.operator.address,
      amount: 10_000_000n,
      period: 30n * 86_400n,
      periods: 12,
      trialEnd: 0n,
      chargeWindow: 30n * 86_400n,
    };
    const permit = { value: 120_000_000n, deadline: now + 3600n };
    const permitNonce = await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [subscriber.address] });
    const permitSignature = await subscriber.signTypedData({
      domain: await readDomain(pub, token),
      types: PERMIT_TYPES,
      primaryType: 'Permit',
      message: { owner: subscriber.address, spender: manager, value: permit.value, nonce: permitNonce, deadline: permit.deadline },
    });
    const enrolment = await signEnrolmentV2(pub, subscriber, manager, terms, { nonce: randomNonce(), deadline: now + 3600n });
    const body = {
      subscriber: subscriber.address,
      terms: {
        token,
        merchant: payout,
        amount: '10000000',
        period: terms.period.toString(),
        periods: 12,
        trialEnd: '0',
        chargeWindow: terms.chargeWindow.toString(),
      },
      permit: { value: permit.value.toString(), deadline: permit.deadline.toString(), signature: permitSignature },
      enrolment: { nonce: enrolment.nonce, deadline: enrolment.deadline.toString(), signature: enrolment.signature },
    };

    // Wrong merchant and a tampered amount are refused before anything is sent.
    const wrongMerchant = await relay(
      '/v1/relay/subscriptions',
      { ...body, terms: { ...body.terms, merchant: DEV_ACCOUNTS.operator.address } },
      newKey(),
    );
    expect(wrongMerchant.json().error).toMatchObject({ code: 'invalid_request', param: 'enrolment.signature' });
    const tampered = await relay('/v1/relay/subscriptions', { ...body, terms: { ...body.terms, amount: '20000000' } }, newKey());
    expect(tampered.json().error).toMatchObject({ code: 'invalid_request', param: 'enrolment.signature' });
    // A window other than the platform's for the period is refused even when the subscriber signed it:
    // the indexer would never record that enrolment (charge_window_mismatch), so nothing is sent.
    const short = await signEnrolmentV2(
      pub,
      subscriber,
      manager,
      { ...terms, chargeWindow: 3600n },
      { nonce: randomNonce(), deadline: now + 3600n },
    );
    const shortWindow = await relay(
      '/v1/relay/subscriptions',
      {
        ...body,
        terms: { ...body.terms, chargeWindow: '3600' },
        enrolment: { nonce: short.nonce, deadline: short.deadline.toString(), signature: short.signature },
      },
      newKey(),
    );
    expect(shortWindow.statusCode).toBe(400);
    expect(shortWindow.json().error).toMatchObject({ code: 'invalid_request', param: 'terms.chargeWindow' });
    expect(shortWindow.json().error.message).toContain(String(terms.period));

    const key = newKey();
    const res = await relay('/v1/relay/subscriptions', body, key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'subscription' });
    const done = await settled(key);
    expect(done.status).toBe('confirmed');
    expect(
      await pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [subscriber.address, manager] }),
    ).toBe(120_000_000n);

    const seen: ChainEvent[] = [];
    const authorizations: ChainEvent[] = [];
    const hooks = createHookRegistry([
      hookPoints.subscriptionCreated('test', async (event) => void seen.push(event)),
      hookPoints.authorizationUsed('payments', async (event) => void authorizations.push(event)),
    ]);
    for (let run = 0; run < 2; run++) {
      // Two instances one after the other: the second resumes from the checkpoint and re-sees nothing.
      const indexer = createIndexer({ sql: db.sql, settings, hooks, batchSize: 50 });
      for (let i = 0; i < 100; i++) if ((await indexer.step()).kind === 'idle') break;
    }
    const created = seen.filter((e) => e.transactionHash === done.transactionHash);
    expect(created).toHaveLength(1);
    expect(created[0]!.args).toMatchObject({ subscriber: subscriber.address, merchant: payout, amount: '10000000', periods: 12 });
    // The relayed payment of the first test is seen once as AuthorizationUsed.
    expect(authorizations.filter((e) => e.transactionHash === firstPaymentTx)).toHaveLength(1);
    const rows =
      await db.sql`select count(*)::int as n from chain_events where event_name = 'SubscriptionCreated' and transaction_hash = ${done.transactionHash}`;
    expect(rows[0]!.n).toBe(1);
  });
});

describe('relay sweep', () => {
  it('starts the workflow of a submission whose start was lost', async () => {
    // An api without Temporal records the submission but starts nothing.
    const detached = await createTestApp(db.sql, { chain: { test: settings } });
    const key = newKey();
    try {
      const res = await detached.app.inject({
        method: 'POST',
        url: '/v1/relay/payments',
        headers: { authorization: `Bearer ${merchant.secretKey}`, 'idempotency-key': key },
        payload: await authorization(payerA, { value: 3n }),
      });
      expect(res.json().status).toBe('pending');
    } finally {
      await detached.close();
    }
    const started = await temporal.client.workflow.execute('relaySweepWorkflow', {
      workflowId: `relay-sweep-${key}`,
      taskQueue: temporal.taskQueue,
      args: [{ olderThanSeconds: 0 }],
    });
    expect(started).toBeGreaterThanOrEqual(1);
    expect((await settled(key)).status).toBe('confirmed');
  });
});

describe('reverted on-chain', () => {
  it('records a mined transaction that reverted as failed with the reason, and does not resend it', async () => {
    const payerF = payers[5]!;
    const balance = await balanceOf(payerF.address);
    const bodies = [await authorization(payerF, { value: balance }), await authorization(payerF, { value: balance })];
    const keys = [newKey(), newKey()];
    await testClient.setAutomine(false);
    try {
      // Both simulate against the same state, so both are sent; only one can pay.
      for (const [i, body] of bodies.entries()) expect((await relay('/v1/relay/payments', body, keys[i])).statusCode).toBe(200);
      let sent = 0;
      for (let i = 0; i < 1200 && sent < 2; i++) {
        const [row] = await db.sql<{ n: number; failed: number }[]>`
          select count(t.id)::int as n, count(*) filter (where s.status = 'failed')::int as failed
          from relay_submissions s left join chain_transactions t on t.purpose = 'relay:' || s.id
          where s.idempotency_key in ${db.sql(keys)}`;
        sent = row!.n;
        if (row!.failed > 0) break;
        if (sent < 2) await new Promise((r) => setTimeout(r, 50));
      }
      expect(sent).toBe(2);
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    const results = [await settled(keys[0]!), await settled(keys[1]!)];
    expect(results.map((r) => r.status).sort()).toEqual(['confirmed', 'failed']);
    const failed = results.find((r) => r.status === 'failed')!;
    expect(failed.blockNumber).not.toBeNull();
    expect((await pub.getTransactionReceipt({ hash: failed.transactionHash })).status).toBe('reverted');
    expect(failed).toMatchObject({
      failureCode: 'insufficient_funds',
      failureReason: expect.stringMatching(/balance is lower than the amount/),
    });
    const [tx] = await db.sql<{ replacements: number; allHashes: string[] }[]>`
      select replacements, all_hashes as "allHashes" from chain_transactions where purpose = ${`relay:${failed.id}`}`;
    expect(tx).toEqual({ replacements: 0, allHashes: [failed.transactionHash] });
  });
});

describe('stuck transactions', () => {
  it('replaces a transaction that is not mined with a higher fee at the same nonce', async () => {
    await testClient.setAutomine(false);
    const original = settings.stuckAfterSeconds;
    settings.stuckAfterSeconds = 1;
    try {
      const key = newKey();
      expect((await relay('/v1/relay/payments', await authorization(payerA, { value: 1n }), key)).statusCode).toBe(200);
      let row: { replacements: number; allHashes: string[]; nonce: string } | undefined;
      for (let i = 0; i < 600; i++) {
        [row] = await db.sql<{ replacements: number; allHashes: string[]; nonce: string }[]>`
          select t.replacements, t.all_hashes as "allHashes", t.nonce::text from chain_transactions t
          join relay_submissions s on t.purpose = 'relay:' || s.id where s.idempotency_key = ${key}`;
        if (row && row.replacements >= 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row!.replacements).toBeGreaterThanOrEqual(1);
      expect(new Set(row!.allHashes).size).toBe(row!.allHashes.length);
      // The replacement is recorded before it is sent: wait until the node holds it, then mine.
      const replacement = row!.allHashes[row!.allHashes.length - 1] as `0x${string}`;
      for (let i = 0; i < 200; i++) {
        if (
          await pub.getTransaction({ hash: replacement }).then(
            () => true,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await testClient.setAutomine(true);
      await testClient.mine({ blocks: 1 });
      const done = await settled(key);
      expect(done.status).toBe('confirmed');
      const tx = await pub.getTransaction({ hash: done.transactionHash });
      expect(BigInt(tx.nonce)).toBe(BigInt(row!.nonce));
      // The mined one is a replacement (the original left the pool when it was replaced).
      const [final] = await db.sql<{ allHashes: string[] }[]>`
        select t.all_hashes as "allHashes" from chain_transactions t join relay_submissions s on t.purpose = 'relay:' || s.id
        where s.idempotency_key = ${key}`;
      expect(final!.allHashes.slice(1)).toContain(done.transactionHash);
      expect(final!.allHashes[0]).toBe(row!.allHashes[0]);
    } finally {
      settings.stuckAfterSeconds = original;
      await testClient.setAutomine(true);
    }
  });
});

describe('chain time', () => {
  it('relays an authorization signed against the wall clock that is valid only after the latest block', async () => {
    // A live chain's latest block lags the wall clock by up to a block time; an idle automine anvil's
    // by minutes. Here the latest block is 30 s old and anvil's clock is at the wall clock, so the
    // next block is mined now. The payer signs validAfter = wall clock - 5 s: after the latest
    // block, before the next. The relay must simulate in the next block, not in the latest one.
    const wall = () => Math.floor(Date.now() / 1000);
    // anvil_setTime moves anvil's clock (viem's test actions lack it).
    const setAnvilTime = (seconds: number) => testClient.request({ method: 'anvil_setTime', params: [seconds] } as never);
    await setAnvilTime(wall() - 30);
    await testClient.mine({ blocks: 1 });
    await setAnvilTime(wall());
    const now = BigInt(wall());
    const latest = await chainTime();
    expect(latest).toBeLessThanOrEqual(now - 25n);
    const body = await authorization(payerB, { value: 7n, validAfter: now - 5n, validBefore: now + 3600n });
    const payerBefore = await balanceOf(payerB.address);
    const key = newKey();
    expect((await relay('/v1/relay/payments', body, key)).statusCode).toBe(200);
    const done = await settled(key);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'confirmed', failureCode: null });
    expect(await balanceOf(payerB.address)).toBe(payerBefore - 7n);
  });
});
