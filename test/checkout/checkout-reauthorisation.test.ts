// The hosted approval link of an upgrade above the authorised amount through the real app (issue 40, item 1): the
// page and its offer, the relay endpoint (who may sign, over which terms, the error envelope) and what it binds, with
// the real worker on the Temporal dev server and a private anvil with the real USDC. What the indexer does with the
// enrolment is test/subscription-plan-changes/reauthorisation.test.ts's; the page in a browser, test/browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSettings } from '../../src/chain/config.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { createPlanService } from '../../src/subscription-plans/service.js';
import { findCustomerIdByWallet } from '../../src/billing-portal/repo.js';
import { startWalletChange } from '../../src/subscription-plan-changes/wallet-change.js';
import { onSubscriptionCreatedOnChain } from '../../src/subscriptions/chain-events.js';
import { findSubscriptionById } from '../../src/subscriptions/repo.js';
import { onChainPeriodSecondsV2, periodStart } from '../../src/subscriptions/periods.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { signEnrolmentBody } from '../support/enrolment-signing.js';
import { newPayer, startTestChain, type TestChain } from '../support/subscriptions.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';
import { until } from '../support/until.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

let db: TestDatabase;
let chain: TestChain;
let settings: ChainSettings;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let plans: { basic: string; pro: string };

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
  settings = devChainSettings({
    rpcUrl: chain.anvil.rpcUrl,
    chainId: chain.anvil.chainId,
    token: chain.deployed.token,
    subscriptionManager: chain.deployed.subscriptionManager,
    escrow: chain.deployed.escrow,
  });
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings }, subscriptionChain: chain.subscriptionChain });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  merchant = await seedMerchant(db.sql, 'Upgrade shop');
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  await addMerchantChainAddress(db.sql, { merchantId: merchant.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  const planService = createPlanService({ sql: db.sql, events: { dispatch: async () => {} } });
  const scope = { merchantId: merchant.merchantId, livemode: false };
  const plan = (name: string, amount: bigint) =>
    planService
      .create(scope, { name, amount: amount.toString(), currency: 'USDC', interval: 'monthly', intervalCount: 1, trialPeriodDays: 0 })
      .then((p) => p.id);
  plans = { basic: await plan('Basic', USDC(10)), pro: await plan('Pro', USDC(25)) };
}, 180_000);

afterAll(async () => {
  await t?.close();
  await temporal?.stop();
  await chain?.stop();
  await db?.drop();
});

async function enrol() {
  const payer = newPayer();
  await chain.mint(payer.address, USDC(10_000));
  const log = await chain.enrol({ payer, amount: USDC(10), period: MONTH_PERIOD, periods: 0 });
  const created = await onSubscriptionCreatedOnChain(
    {
      sql: db.sql,
      temporal: temporal.client,
      taskQueue: temporal.taskQueue,
      events: { dispatch: async () => {} },
      modes: { test: chain.mode },
    },
    { ...log, planId: plans.basic },
  );
  if (created.outcome !== 'created') throw new Error(`enrolment not created: ${JSON.stringify(created)}`);
  return { payer, subscriptionId: created.subscriptionId };
}

function expectEnvelope(response: { statusCode: number; body: string; json: () => any }, status: number, code: string, param: string) {
  expect(response.statusCode, response.body).toBe(status);
  const error = response.json().error;
  expect(error).toMatchObject({ code, param });
  if (code === 'invalid_request') expect(error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
}

describe('the hosted approval of an upgrade above the authorised amount', () => {
  it('the approval link: the hosted page and offer open for their own change only, only the subscribing wallet over the offered terms is relayed, and a cancelled change closes it', async () => {
    const a = await enrol();
    const b = await enrol();
    const auth = { authorization: `Bearer ${merchant.secretKey}` };
    const change = async (subscriptionId: string, planId: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/subscriptions/${subscriptionId}/change-plan`,
        headers: auth,
        payload: { planId },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const linkOf = (sub: { pendingPlanChange: { id: string; hostedUrl: string } }) => ({
      id: sub.pendingPlanChange.id,
      token: new URL(sub.pendingPlanChange.hostedUrl).searchParams.get('token')!,
    });
    const linkA = linkOf(await change(a.subscriptionId, plans.pro));
    const linkB = linkOf(await change(b.subscriptionId, plans.pro));
    expect(linkA.token).not.toBe(linkB.token);

    const page = (id: string, token: string) => t.app.inject({ method: 'GET', url: `/checkout/plan-changes/${id}?token=${token}` });
    const offer = (id: string, token: string) =>
      t.app.inject({ method: 'GET', url: `/checkout/plan-changes/${id}/reauthorisation?token=${token}` });
    expect((await page(linkA.id, linkA.token)).statusCode).toBe(200);
    // Another subscription's link, or this change with another's token: the same 404.
    expect((await page(linkA.id, linkB.token)).statusCode).toBe(404);
    expectEnvelope(await offer(linkA.id, linkB.token), 404, 'not_found', 'token');
    expectEnvelope(await offer(linkB.id, linkA.token), 404, 'not_found', 'token');

    const offered = await offer(linkA.id, linkA.token);
    expect(offered.statusCode, offered.body).toBe(200);
    const body = offered.json();
    const [row] = await db.sql<{ firstPeriodStart: Date }[]>`
      select first_period_start as "firstPeriodStart" from subscriptions where id = ${a.subscriptionId}`;
    const next = periodStart({ anchor: row!.firstPeriodStart, interval: 'monthly', intervalCount: 1 }, 1);
    expect(body).toMatchObject({
      object: 'checkout_reauthorisation_offer',
      planChangeId: linkA.id,
      subscriptionId: a.subscriptionId,
      planId: plans.pro,
      fromAmount: USDC(10).toString(),
      subscriber: a.payer.address,
      chainId: chain.anvil.chainId,
      firstChargeAt: next.toISOString(),
      terms: { amount: USDC(25).toString(), periods: 0, trialEnd: String(next.getTime() / 1000), period: MONTH_PERIOD.toString() },
    });

    const signing = {
      permit: { client: chain.pub, token: chain.deployed.token },
      enrolment: { client: chain.pub, token: chain.deployed.token },
    };
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const reauthorise = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/checkout/plan-changes/${linkA.id}/reauthorise`, payload });
    const bound = async () =>
      (
        await db.sql<{ periodIndex: number | null; firstPeriodStart: Date | null }[]>`
        select period_index as "periodIndex", first_period_start as "firstPeriodStart" from subscription_reauthorisations
        where plan_change_id = ${linkA.id}`
      )[0]!;
    // Another wallet, even over the exact terms: refused, nothing bound.
    const stranger = await signEnrolmentBody(body, newPayer(), signing, deadline);
    expectEnvelope(await reauthorise({ ...stranger, token: linkA.token }), 400, 'invalid_request', 'subscriber');
    // The subscriber over other terms (the old amount): refused.
    const cheaper = await signEnrolmentBody({ ...body, terms: { ...body.terms, amount: USDC(10).toString() } }, a.payer, signing, deadline);
    expectEnvelope(await reauthorise({ ...cheaper, token: linkA.token }), 400, 'invalid_request', 'terms');
    // Another change's token.
    const signed = await signEnrolmentBody(body, a.payer, signing, deadline);
    expectEnvelope(await reauthorise({ ...signed, token: linkB.token }), 404, 'not_found', 'token');
    expect(await bound()).toEqual({ periodIndex: null, firstPeriodStart: null });

    // The subscriber over the offered terms: bound to period 1 and handed to the relay.
    const accepted = await reauthorise({ ...signed, token: linkA.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      object: 'checkout_reauthorisation',
      planChangeId: linkA.id,
      firstChargeAt: next.toISOString(),
    });
    expect(await bound()).toEqual({ periodIndex: 1, firstPeriodStart: next });

    // The merchant cancels the waiting change (the current plan again): the link stops.
    await change(a.subscriptionId, plans.basic);
    expectEnvelope(await offer(linkA.id, linkA.token), 403, 'session_invalid_state', 'token');
  });

  it('the wallet-move link: only the wallet the customer named signs it; the old wallet and a stranger are refused and nothing is bound', async () => {
    // The previous test's relayed enrolment is sent from the account this test enrols with: its transaction first.
    await until(
      async () =>
        (await db.sql<{ n: number }[]>`select count(*)::int as n from relay_submissions where status in ('pending', 'submitted')`)[0]!.n,
      (inFlight) => inFlight === 0,
      'the relayed enrolments settled',
    );
    const a = await enrol();
    const b = await enrol();
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const newWallet = newPayer();
    // The customer starts the move in the portal (POST /billing-portal/api/subscriptions/{id}/wallet-change).
    const start = async (subscriptionId: string, wallet: string) =>
      startWalletChange(db.sql, scope, (await findSubscriptionById(db.sql, subscriptionId))!, wallet, {
        publicBaseUrl: 'http://localhost',
        otherCustomerOf: (w) => findCustomerIdByWallet(db.sql, scope, w),
      });
    const moveA = await start(a.subscriptionId, newWallet.address);
    const moveB = await start(b.subscriptionId, newPayer().address);

    const offer = (id: string, token: string) =>
      t.app.inject({ method: 'GET', url: `/checkout/wallet-changes/${id}/reauthorisation?token=${token}` });
    expectEnvelope(await offer(moveA.id, moveB.token), 404, 'not_found', 'token');
    // A wallet move's id is not a plan change's: the other path does not open it.
    expect(
      (await t.app.inject({ method: 'GET', url: `/checkout/plan-changes/${moveA.id}/reauthorisation?token=${moveA.token}` })).statusCode,
    ).not.toBe(200);
    const offered = await offer(moveA.id, moveA.token);
    expect(offered.statusCode, offered.body).toBe(200);
    const body = offered.json();
    expect(body).toMatchObject({ subscriptionId: a.subscriptionId, subscriber: newWallet.address, terms: { amount: USDC(10).toString() } });

    const signing = {
      permit: { client: chain.pub, token: chain.deployed.token },
      enrolment: { client: chain.pub, token: chain.deployed.token },
    };
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const submit = (payload: object) => t.app.inject({ method: 'POST', url: `/checkout/wallet-changes/${moveA.id}/reauthorise`, payload });
    const bound = async () =>
      (
        await db.sql<
          { periodIndex: number | null }[]
        >`select period_index as "periodIndex" from subscription_reauthorisations where id = ${moveA.id}`
      )[0]!;
    // The wallet the subscription charges today, over the exact terms: not the one named, refused.
    expectEnvelope(
      await submit({ ...(await signEnrolmentBody(body, a.payer, signing, deadline)), token: moveA.token }),
      400,
      'invalid_request',
      'subscriber',
    );
    // A stranger over the exact terms: refused.
    expectEnvelope(
      await submit({ ...(await signEnrolmentBody(body, newPayer(), signing, deadline)), token: moveA.token }),
      400,
      'invalid_request',
      'subscriber',
    );
    // The named wallet under another move's token: the same 404 as any wrong link.
    const signed = await signEnrolmentBody(body, newWallet, signing, deadline);
    expectEnvelope(await submit({ ...signed, token: moveB.token }), 404, 'not_found', 'token');
    expect(await bound()).toEqual({ periodIndex: null });

    const accepted = await submit({ ...signed, token: moveA.token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await bound()).toEqual({ periodIndex: 1 });
  });
});
