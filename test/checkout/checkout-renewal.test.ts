// The hosted renewal of a subscription's allowance through the real app: the
// page, its offer, the relay endpoint (permit checks, the error envelope) and
// the status route, with the real worker on the Temporal dev server, a private
// anvil and the SMTP sink the renewal email reaches.
import { randomBytes } from 'node:crypto';
import { type Address, createWalletClient, domainSeparator, http } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { describeRefusal } from '../../src/chain/refusals.js';
import { type ChainSettings } from '../../src/chain/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { PERMIT_TYPES } from '../../src/chain/typed-data.js';
import { startSmtpSink, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { newId } from '../../src/ids.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { recordEnrolmentEmail } from '../../src/subscriptions/renewal-repo.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { allowanceRenewalWorkflowId, subscriptionAllowanceRenewalWorkflow } from '../../workflows/subscription-renewal.js';
import { until } from '../support/until.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;

let db: TestDatabase;
let chain: TestChain;
let settings: ChainSettings;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let sink: SmtpSink;
let mailer: Mailer;
let planId: string;
let subscriptionId: string;
let token: string;
let payer: PrivateKeyAccount;

beforeAll(async () => {
  db = await createTestDatabase();
  [chain, sink] = await Promise.all([startTestChain(db.sql), startSmtpSink()]);
  settings = devChainSettings({
    rpcUrl: chain.anvil.rpcUrl,
    chainId: chain.anvil.chainId,
    token: chain.deployed.token,
    subscriptionManager: chain.deployed.subscriptionManager,
    escrow: chain.deployed.escrow,
  });
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings }, subscriptionChain: chain.subscriptionChain, mailer });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql, 'Renewal shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  const plan = await t.app.inject({
    method: 'POST',
    url: '/v1/subscription-plans',
    headers: { authorization: `Bearer ${merchant.secretKey}` },
    payload: { name: 'Coffee', amount: USDC(10).toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1 },
  });
  planId = plan.json().id;

  // Enrolled with an allowance of two periods and an email: period 0 is charged at once, which
  // leaves one period, so the worker queues and delivers the renewal email.
  payer = newPayer();
  const email = `renew-${randomBytes(4).toString('hex')}@example.com`;
  await chain.mint(payer.address, USDC(1000));
  await recordEnrolmentEmail(db.sql, {
    id: newId('customer'),
    merchantId: merchant.merchantId,
    livemode: false,
    walletAddress: payer.address,
    email,
  });
  const log = await chain.enrol({
    payer,
    amount: USDC(10),
    period: BigInt(onChainPeriodSecondsV2('monthly', 1)),
    periods: 0,
    permitValue: USDC(20),
  });
  const created = await onSubscriptionCreatedOnChain(
    {
      sql: db.sql,
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      events: { dispatch: async () => {} },
      modes: { test: chain.mode },
    },
    { ...log, planId },
  );
  if (created.outcome === 'ignored') throw new Error(created.reason);
  subscriptionId = created.subscriptionId;
  const [mail] = await until(
    () => sink.messages({ to: email }),
    (m) => m.length === 1,
    'the renewal email',
  );
  const link = /\/checkout\/subscriptions\/(sub_\w+)\/renew\?token=([\w-]+)/.exec(mail!.text);
  expect(link?.[1]).toBe(subscriptionId);
  token = link![2]!;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  mailer?.close();
  await sink?.stop();
  await chain?.stop();
  await db?.drop();
});

function expectEnvelope(response: { statusCode: number; json: () => any }, status: number, code: string, param?: string) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  const error = response.json().error;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  if (param !== undefined) {
    expect(error.param).toBe(param);
    // A validation refusal lists every failed field.
    if (code === 'invalid_request') expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
  }
  return error;
}

const allowance = () =>
  chain.pub.readContract({
    address: chain.deployed.token,
    abi: fiatTokenAbi,
    functionName: 'allowance',
    args: [payer.address, chain.subscriptionManagerV2],
  });

async function offer() {
  const response = await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewal?token=${token}` });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function signPermit(signer: PrivateKeyAccount, o: any, overrides: { value?: bigint; deadline?: bigint } = {}) {
  const deadline = overrides.deadline ?? BigInt(Math.floor((await chain.chainNowMs()) / 1000)) + 3600n;
  const value = overrides.value ?? BigInt(o.permitValue);
  const signature = await signer.signTypedData({
    domain: { ...o.tokenDomain, verifyingContract: o.tokenDomain.verifyingContract as Address },
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: { owner: payer.address, spender: o.spender as Address, value, nonce: BigInt(o.permitNonce), deadline },
  });
  return { value: value.toString(), deadline: deadline.toString(), signature };
}

const renew = (body: unknown, id = subscriptionId) =>
  t.app.inject({ method: 'POST', url: `/checkout/subscriptions/${id}/renew`, payload: body as object });

describe('hosted allowance renewal', () => {
  it('serves the renewal page only with the emailed token', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renew?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain(`data-renewal-id="${subscriptionId}"`);
    expect(page.body).not.toContain(token);
    for (const url of [
      `/checkout/subscriptions/${subscriptionId}/renew?token=wrong-token-wrong-token`,
      `/checkout/subscriptions/${subscriptionId}/renew`,
      `/checkout/subscriptions/sub_doesnotexist/renew?token=${token}`,
    ]) {
      const missing = await t.app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type']).toContain('text/html');
    }
  });

  it('offers the current allowance plus 12 periods, and refuses a wrong token or a malformed request with the error envelope', async () => {
    const o = await offer();
    expect(o).toMatchObject({
      object: 'checkout_renewal_offer',
      subscriptionId,
      status: 'active',
      planName: 'Coffee',
      merchantName: 'Renewal shop',
      subscriber: payer.address,
      spender: chain.subscriptionManagerV2,
      token: chain.deployed.token,
      amount: USDC(10).toString(),
      allowance: USDC(10).toString(),
      periodsLeft: 1,
      permitValue: USDC(130).toString(),
    });
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewal?token=wrong-token-wrong-token` }),
      404,
      'not_found',
      'token',
    );
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewal` }),
      400,
      'invalid_request',
      'token',
    );
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/nope/renewal?token=${token}` }),
      400,
      'invalid_request',
      'id',
    );
  });

  it("works on Circle's USDC, which has no eip712Domain(): the offer's token domain is read from name() and version()", async () => {
    const token5267 = [
      { type: 'function', name: 'eip712Domain', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'bytes1' }] },
    ] as const;
    await expect(chain.pub.readContract({ address: chain.deployed.token, abi: token5267, functionName: 'eip712Domain' })).rejects.toThrow();
    const o = await offer();
    expect(o.tokenDomain).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: chain.anvil.chainId,
      verifyingContract: chain.deployed.token,
    });
    const onChain = await chain.pub.readContract({ address: chain.deployed.token, abi: fiatTokenAbi, functionName: 'DOMAIN_SEPARATOR' });
    expect(domainSeparator({ domain: { ...o.tokenDomain, verifyingContract: o.tokenDomain.verifyingContract as Address } })).toBe(onChain);
    // the POST side (.../renew) is the relay test below, on the same token
  });

  it('refuses a bad renewal post with the spec error envelope, naming the param, and sends nothing', async () => {
    const o = await offer();
    const good = await signPermit(payer, o);
    const { signature: _omitted, ...unsigned } = good;
    expectEnvelope(await renew({ token, permit: unsigned }), 400, 'invalid_request', 'permit.signature');
    expectEnvelope(await renew({ token, permit: { ...good, value: 'lots' } }), 400, 'invalid_request', 'permit.value');
    expectEnvelope(await renew({ permit: good }), 400, 'invalid_request', 'token');
    expectEnvelope(await renew({ token: 'wrong-token-wrong-token', permit: good }), 404, 'not_found', 'token');
    expectEnvelope(await renew({ token, permit: good }, 'not-an-id'), 400, 'invalid_request', 'id');
    // Signed by someone else than the subscriber.
    const stranger = newPayer();
    expectEnvelope(await renew({ token, permit: await signPermit(stranger, o) }), 400, 'invalid_request', 'permit.signature');
    // A signature over other values than those posted.
    expectEnvelope(
      await renew({ token, permit: { ...good, value: (BigInt(good.value) + 1n).toString() } }),
      400,
      'invalid_request',
      'permit.signature',
    );
    // Expired, and not raising the allowance (a permit replaces it).
    const now = BigInt(Math.floor((await chain.chainNowMs()) / 1000));
    expectEnvelope(
      await renew({ token, permit: await signPermit(payer, o, { deadline: now - 1n }) }),
      400,
      'invalid_request',
      'permit.deadline',
    );
    expectEnvelope(await renew({ token, permit: await signPermit(payer, o, { value: USDC(10) }) }), 400, 'invalid_request', 'permit.value');
    expect(await allowance()).toBe(USDC(10));
    expect((await db.sql`select 1 from chain_transactions where purpose like 'permit:%'`).length).toBe(0);
  });

  it('refuses at the door a blacklisted subscriber (USDC 2.2 would take its permit) and a paused token, with the refusal code, and sends nothing', async () => {
    const role = (key: `0x${string}`) =>
      createWalletClient({
        account: privateKeyToAccount(key),
        chain: chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl),
        transport: http(chain.anvil.rpcUrl),
      });
    const asRole = async (key: `0x${string}`, functionName: 'blacklist' | 'unBlacklist' | 'pause' | 'unpause') => {
      const hash = await role(key).writeContract({
        address: chain.deployed.token,
        abi: fiatTokenAbi,
        functionName,
        ...(functionName === 'blacklist' || functionName === 'unBlacklist' ? { args: [payer.address] } : {}),
      } as never);
      expect((await chain.pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    const o = await offer();
    const permit = await signPermit(payer, o);
    await asRole(DEV_ACCOUNTS.usdcBlacklister.privateKey, 'blacklist');
    try {
      const error = expectEnvelope(await renew({ token, permit }), 400, 'invalid_request', 'permit.signature');
      expect(error.details.refusalCode).toBe('payer_blacklisted');
      expect(error.message).toBe(describeRefusal('payer_blacklisted'));
    } finally {
      await asRole(DEV_ACCOUNTS.usdcBlacklister.privateKey, 'unBlacklist');
    }
    await asRole(DEV_ACCOUNTS.usdcPauser.privateKey, 'pause');
    try {
      const error = expectEnvelope(await renew({ token, permit }), 400, 'invalid_request', 'token');
      expect(error.details.refusalCode).toBe('token_paused');
    } finally {
      await asRole(DEV_ACCOUNTS.usdcPauser.privateKey, 'unpause');
    }
    expect(await allowance()).toBe(USDC(10));
    expect((await db.sql`select 1 from chain_transactions where purpose like 'permit:%'`).length).toBe(0);
  });

  it('a permit the token refuses after the door (paused by the time it is submitted) fails with its refusal code and sends nothing; posted again once unpaused, it lands', async () => {
    const o = await offer();
    const permit = await signPermit(payer, o);
    const pauser = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.usdcPauser.privateKey),
      chain: chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl),
      transport: http(chain.anvil.rpcUrl),
    });
    const setPaused = async (paused: boolean) =>
      expect(
        (
          await chain.pub.waitForTransactionReceipt({
            hash: await pauser.writeContract({
              address: chain.deployed.token,
              abi: fiatTokenAbi,
              functionName: paused ? 'pause' : 'unpause',
            }),
          })
        ).status,
      ).toBe('success');
    await setPaused(true);
    try {
      // What the renew route starts once its door check passed: the pause lands in between.
      const handle = await temporal.client.workflow.start(subscriptionAllowanceRenewalWorkflow, {
        workflowId: allowanceRenewalWorkflowId(subscriptionId, o.permitNonce),
        taskQueue: temporal.taskQueue,
        args: [{ subscriptionId, ...permit }],
      });
      expect(await handle.result()).toMatchObject({ ok: false, code: 'token_paused' });
      const status = await t.app.inject({
        method: 'GET',
        url: `/checkout/subscriptions/${subscriptionId}/renewals/${o.permitNonce}?token=${token}`,
      });
      expect(status.json()).toMatchObject({
        object: 'checkout_renewal',
        status: 'failed',
        failureCode: 'token_paused',
        failureReason: describeRefusal('token_paused'),
      });
      expect((await db.sql`select 1 from chain_transactions where purpose like 'permit:%'`).length).toBe(0);
      expect(await allowance()).toBe(USDC(10));
    } finally {
      await setPaused(false);
    }
    // Paused means try later: posted again once unpaused, the same permit nonce is submitted and lands.
    const again = await renew({ token, permit });
    expect(again.statusCode, again.body).toBe(200);
    const renewed = await until(
      async () =>
        (
          await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewals/${o.permitNonce}?token=${token}` })
        ).json(),
      (s) => s.status !== 'pending',
      'the renewal posted again',
    );
    expect(renewed).toMatchObject({ status: 'confirmed', failureCode: null });
    expect(await allowance()).toBe(BigInt(permit.value));
  });

  it("relays the subscriber's permit through the operator once; a re-post answers from the same renewal", async () => {
    const o = await offer();
    const permit = await signPermit(payer, o);
    const permitsBefore = (await db.sql`select 1 from chain_transactions where purpose like 'permit:%'`).length;
    const posted = await renew({ token, permit });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ object: 'checkout_renewal', subscriptionId, permitNonce: o.permitNonce });
    const status = await until(
      async () =>
        (
          await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewals/${o.permitNonce}?token=${token}` })
        ).json(),
      (s) => s.status !== 'pending',
      'the renewal on-chain',
    );
    expect(status).toMatchObject({ status: 'confirmed', failureReason: null });
    expect(status.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await allowance()).toBe(BigInt(o.permitValue));

    // The same post again (a retry after a lost response): the confirmed renewal, no second transaction.
    const again = await renew({ token, permit });
    expect(again.json()).toMatchObject({ status: 'confirmed', permitNonce: o.permitNonce, transactionHash: status.transactionHash });
    expect((await db.sql`select 1 from chain_transactions where purpose like 'permit:%'`).length).toBe(permitsBefore + 1);
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: `/checkout/subscriptions/${subscriptionId}/renewals/99?token=${token}` }),
      404,
      'not_found',
      'nonce',
    );
    expect((await offer()).periodsLeft).toBe(Number(BigInt(o.permitValue) / USDC(10)));
  });

  it('refuses to renew a cancelled subscription (session_invalid_state)', async () => {
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/subscriptions/${subscriptionId}/cancel`,
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { reason: 'end of test' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const o = await offer();
    expect(o.status).toBe('cancelled');
    expectEnvelope(await renew({ token, permit: await signPermit(payer, o) }), 403, 'session_invalid_state');
  });

  it('takes an optional customer email on the enrol route, validated like any field', async () => {
    const body = {
      subscriber: payer.address,
      terms: {
        token: chain.deployed.token,
        merchant: DEV_ACCOUNTS.merchant.address,
        amount: '10000000',
        period: '2629746',
        periods: 0,
        trialEnd: '0',
        chargeWindow: '3009600',
      },
      permit: { value: '1', deadline: '1', signature: `0x${'11'.repeat(65)}` },
      enrolment: { nonce: `0x${'22'.repeat(32)}`, deadline: '1', signature: `0x${'33'.repeat(65)}` },
      customerEmail: 'not-an-email',
    };
    expectEnvelope(
      await t.app.inject({ method: 'POST', url: `/checkout/plans/${planId}/enrol`, payload: body }),
      400,
      'invalid_request',
      'customerEmail',
    );
  });
});
