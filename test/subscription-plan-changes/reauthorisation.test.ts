// An upgrade above what the customer authorised on chain (issue 40, item 1): it waits, charging nothing above the
// cap, until the subscribing wallet signs a new enrolment bound to the subscription's next period; the indexer entry
// point then moves the subscription's charging to it and the old enrolment is cancelled on chain. On the
// time-skipping server, with the real activities on a real database and anvil with the real USDC.
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { bindReauthorisation, findReauthorisationByToken } from '../../src/subscription-plan-changes/reauthorisation-repo.js';
import { replacementStart } from '../../src/subscription-plan-changes/reauthorisation-terms.js';
import { createPlanChangeService } from '../../src/subscription-plan-changes/service.js';
import { onSubscriptionCreatedOnChain, type SubscriptionChainEventDeps } from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2 } from '../../src/subscriptions/periods.js';
import { createSubscriptionService } from '../../src/subscriptions/service.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import type { SeededMerchant } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { outboxOnly, PUBLIC_BASE_URL, startSubscriptionStack, type SubscriptionStack } from '../support/subscription-stack.js';
import { newPayer, type TestChain } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));

let stack: SubscriptionStack;
let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chain: TestChain;
let merchant: SeededMerchant;
let deps: SubscriptionChainEventDeps;
let plans: { basic: string; pro: string };
const taskQueue = `reauthorisation-${randomBytes(4).toString('hex')}`;
const scope = () => ({ merchantId: merchant.merchantId, livemode: false });

beforeAll(async () => {
  stack = await startSubscriptionStack({ merchantName: 'Reauthorisation merchant', plan: { name: 'Basic', amount: USDC(10) } });
  ({ db, env, chain, merchant } = stack);
  await setPayoutAddress(db.sql, merchant.merchantId, DEV_ACCOUNTS.merchant.address);
  plans = { basic: stack.planId, pro: await stack.addPlan({ name: 'Pro', amount: USDC(25) }) };
  deps = stack.chainEventDeps(taskQueue);
}, 180_000);

afterAll(() => stack?.stop());

const enrol = (periods: number) => stack.enrol(taskQueue, { amount: USDC(10), periods, funds: USDC(10_000) });

/** The merchant asks for the Pro plan at the time-skipping server's time (as at a test clock's). */
async function upgrade(subscriptionId: string) {
  const at = new Date(await env.currentTimeMs());
  const service = createPlanChangeService({ sql: db.sql, events: outboxOnly, now: () => at, publicBaseUrl: PUBLIC_BASE_URL });
  return service.change(scope(), subscriptionId, { planId: plans.pro, prorationBehavior: 'create_prorations' });
}

describe('an upgrade above the authorised amount (issue 40)', () => {
  it('waits charging the old amount, then charges the new one through the customer’s replacement enrolment once per period; the old enrolment is cancelled; a stranger’s enrolment replaces nothing', async () => {
    const { subscriptionId, handle, log, payer } = await enrol(4);
    const subscriptions = createSubscriptionService({ sql: db.sql, events: outboxOnly });
    const worker = await stack.newWorker(taskQueue);
    let replacementId = 0n;
    await worker.runUntil(async () => {
      await stack.periodCharged(subscriptionId, 0);

      // 25 USDC is above the 10 the customer authorised: the change waits with its approval link.
      const waiting = await upgrade(subscriptionId);
      expect(waiting).toMatchObject({ planId: plans.basic, amount: USDC(10).toString(), planAmount: USDC(10).toString() });
      expect(waiting.pendingPlanChange).toMatchObject({ planId: plans.pro, status: 'requires_customer_action', effectiveAt: null });
      const link = new URL(waiting.pendingPlanChange!.hostedUrl!);
      expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_BASE_URL}/checkout/plan-changes/${waiting.pendingPlanChange!.id}`);
      const token = link.searchParams.get('token')!;
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(await findReauthorisationByToken(db.sql, waiting.pendingPlanChange!.id, token)).toMatchObject({ status: 'pending' });

      // While it waits, period 1 is charged at the old amount, under the old authorisation.
      await env.sleep('32 days');
      await stack.periodCharged(subscriptionId, 1);
      expect((await stack.charges(subscriptionId))[1]).toEqual([1, USDC(10).toString(), 'succeeded']);

      // The customer signs on the approval page: the server binds the enrolment to the next period (as the
      // page's POST does), and the subscribing wallet's enrolment for 25 USDC starting then is mined.
      const sub = await subscriptions.get(scope(), subscriptionId);
      const start = replacementStart({
        schedule: { anchor: new Date(sub.firstPeriodStart), interval: 'monthly', intervalCount: 1 },
        periods: 4,
        currentPeriodIndex: 1,
        now: new Date(await env.currentTimeMs()),
      })!;
      expect(start).toMatchObject({ periodIndex: 2, periods: 2 });
      await bindReauthorisation(db.sql, waiting.pendingPlanChange!.id, {
        periodIndex: start.periodIndex,
        firstPeriodStart: start.start,
        enrolmentNonce: '0x01',
      });
      const trialEnd = BigInt(start.start.getTime() / 1000);

      // A stranger's enrolment with the same plan and the same start is nobody's replacement.
      const stranger = newPayer();
      await chain.mint(stranger.address, USDC(1_000));
      const strangers = await chain.enrol({ payer: stranger, amount: USDC(25), period: MONTH_PERIOD, periods: 2, trialEnd });
      expect(await onSubscriptionCreatedOnChain(deps, strangers)).toMatchObject({ outcome: 'ignored' });
      expect(await subscriptions.get(scope(), subscriptionId)).toMatchObject({ planId: plans.basic, amount: USDC(10).toString() });

      const replacement = await chain.enrol({ payer, amount: USDC(25), period: MONTH_PERIOD, periods: 2, trialEnd });
      replacementId = replacement.args.id;
      expect(await onSubscriptionCreatedOnChain(deps, replacement)).toEqual({ outcome: 'replaced', subscriptionId });
      // Seen again (a re-scan): the same answer, nothing more.
      expect(await onSubscriptionCreatedOnChain(deps, replacement)).toEqual({ outcome: 'replaced', subscriptionId });
      const replaced = await subscriptions.get(scope(), subscriptionId);
      expect(replaced).toMatchObject({
        planId: plans.pro,
        amount: USDC(25).toString(),
        planAmount: USDC(25).toString(),
        pendingPlanChange: null,
      });
      // The old link no longer opens anything.
      expect(await findReauthorisationByToken(db.sql, waiting.pendingPlanChange!.id, token)).toMatchObject({ status: 'applied' });

      // The old authorisation is cancelled on chain by the operator.
      await stack.cancelledOnChain(log.args.id, 'old enrolment cancelled');
      expect(await chain.isCancelledOnChain(replacementId.toString())).toBe(false);

      expect(await handle.result()).toBe('completed');
    });

    expect(await stack.charges(subscriptionId)).toEqual([
      [0, USDC(10).toString(), 'succeeded'],
      [1, USDC(10).toString(), 'succeeded'],
      [2, USDC(25).toString(), 'succeeded'],
      [3, USDC(25).toString(), 'succeeded'],
    ]);
    // On chain: two pulls of 10 from the old enrolment, then its periods 0 and 1 (the subscription's 2 and 3) from the new.
    expect(await chain.chargesOnChain(log.args.id)).toEqual([
      [0, USDC(10)],
      [1, USDC(10)],
    ]);
    expect(await chain.chargesOnChain(replacementId)).toEqual([
      [0, USDC(25)],
      [1, USDC(25)],
    ]);
    const updates = await db.sql<{ status: string }[]>`
      select data->'planChange'->>'status' as status from events
      where type = 'subscription.updated' and data->'object'->>'id' = ${subscriptionId} order by id`;
    expect(updates.map((u) => u.status)).toEqual(['requires_customer_action', 'applied']);
  });
});
