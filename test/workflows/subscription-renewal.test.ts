// Renewing a subscription's allowance past the periods permitted at enrolment,
// on the time-skipping server with a real database, a real anvil and a real
// SMTP sink: the reminder email, the hosted renewal (the subscriber's permit,
// submitted by the operator in its own workflow), at_risk recovery through the
// allowance hook, and the lapse of a customer who never renews.
import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { type Address, type Hex, parseEventLogs } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmailActivities } from '../../activities/email.js';
import { createSubscriptionRenewalActivities } from '../../activities/subscription-renewals.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type ChainConfig } from '../../src/chain/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { PERMIT_TYPES } from '../../src/chain/typed-data.js';
import { createRenewalService } from '../../src/checkout/renewal.js';
import type { SmtpSink } from '../../tools/dev/smtp-sink.js';
import type { Mailer } from '../../src/email/mailer.js';
import { newId } from '../../src/ids.js';
import { setSubscriptionGracePeriodHours } from '../../src/merchants/repo.js';
import {
  onSubscriptionCreatedOnChain,
  onTransferToSubscriber,
  type SubscriptionChainEventDeps,
} from '../../src/subscriptions/chain-events.js';
import { onChainPeriodSecondsV2, periodStart } from '../../src/subscriptions/periods.js';
import { findNotices, recordEnrolmentEmail } from '../../src/subscriptions/renewal-repo.js';
import { allowanceRenewalWorkflowId } from '../../workflows/subscription-renewal.js';
import { cancelSubscriptionSignal, getStatusQuery } from '../../workflows/subscription.js';
import type { TestDatabase } from '../support/db.js';
import { recordHistory } from '../support/histories.js';
import type { SeededMerchant } from '../support/app.js';
import { PUBLIC_BASE_URL, startSubscriptionStack, waitFor, type SubscriptionStack } from '../support/subscription-stack.js';
import { alignClocks, newPayer, type TestChain } from '../support/subscriptions.js';

const USDC = (n: number) => BigInt(n) * 1_000_000n;
const MONTH_PERIOD = BigInt(onChainPeriodSecondsV2('monthly', 1));
/** What the hosted enrolment permits: 12 periods of the amount. */
const ENROLMENT_PERIODS = 12n;

let stack: SubscriptionStack;
let db: TestDatabase;
let env: TestWorkflowEnvironment;
let chain: TestChain;
let merchant: SeededMerchant;
let sink: SmtpSink;
let mailer: Mailer;
let chainConfig: ChainConfig;
let taskQueue = 'renewals-test';
let deps: SubscriptionChainEventDeps;

beforeAll(async () => {
  stack = await startSubscriptionStack({ merchantName: 'Renewal merchant', plan: { name: 'Monthly box', amount: USDC(10) } });
  ({ db, env, chain, merchant, sink, mailer } = stack);
  chainConfig = {
    test: devChainSettings({
      rpcUrl: chain.anvil.rpcUrl,
      chainId: chain.anvil.chainId,
      token: chain.deployed.token,
      subscriptionManager: chain.deployed.subscriptionManager,
      escrow: chain.deployed.escrow,
    }),
  };
}, 180_000);

beforeEach(() => {
  taskQueue = `renewals-${randomBytes(4).toString('hex')}`;
  deps = stack.chainEventDeps(taskQueue);
});

afterAll(() => stack?.stop());

const sendingEmails = () => stack.sendingEmails(taskQueue);
const newWorker = (): Promise<Worker> => stack.newWorker(taskQueue);

/** Enrols like the hosted page: the permit covers `permitPeriods` periods, and the email is kept on the wallet's customer. */
async function enrol(input: { periods: number; permitPeriods: bigint; email: string }) {
  await alignClocks(env, chain);
  const payer = newPayer();
  await chain.mint(payer.address, USDC(100_000));
  const amount = USDC(10);
  await recordEnrolmentEmail(db.sql, {
    id: newId('customer'),
    merchantId: merchant.merchantId,
    livemode: false,
    walletAddress: payer.address,
    email: input.email,
  });
  const log = await chain.enrol({ payer, amount, period: MONTH_PERIOD, periods: input.periods, permitValue: amount * input.permitPeriods });
  const created = await onSubscriptionCreatedOnChain(deps, log);
  if (created.outcome === 'ignored') throw new Error(`enrolment ignored: ${created.reason}`);
  const schedule = { anchor: new Date(Number(log.args.firstPeriodStart) * 1000), interval: 'monthly' as const, intervalCount: 1 };
  return { payer, log, schedule, subscriptionId: created.subscriptionId, handle: env.client.workflow.getHandle(created.subscriptionId) };
}

const charges = (subscriptionId: string) =>
  db.sql<{ periodIndex: number; status: string; attempts: number; failureCode: string | null }[]>`
    select period_index as "periodIndex", status, attempts, failure_code as "failureCode"
    from subscription_charges where subscription_id = ${subscriptionId} order by period_index`;
const eventCount = async (subscriptionId: string, type: string) =>
  (
    await db.sql<{ n: number }[]>`
    select count(*)::int as n from events
    where type = ${type} and (data->'object'->>'id' = ${subscriptionId} or data->'subscription'->>'id' = ${subscriptionId})`
  )[0]!.n;
const renewalEmails = (to: string) =>
  db.sql<{ id: string; sentAt: Date | null; textBody: string }[]>`
    select id, sent_at as "sentAt", text_body as "textBody" from outbound_emails where kind = 'subscription_renewal' and to_address = ${to}`;
const allowanceOf = (owner: Address) =>
  chain.pub.readContract({
    address: chain.deployed.token,
    abi: fiatTokenAbi,
    functionName: 'allowance',
    args: [owner, chain.subscriptionManagerV2],
  });
const newEmail = () => `customer-${randomBytes(4).toString('hex')}@example.com`;

/** The renewal link of the email the sink received: subscription id and token. */
function linkIn(text: string): { subscriptionId: string; token: string } {
  const match = /https:\/\/pay\.example\.test\/checkout\/subscriptions\/(sub_\w+)\/renew\?token=([\w-]+)/.exec(text);
  if (!match) throw new Error(`no renewal link in: ${text}`);
  return { subscriptionId: match[1]!, token: match[2]! };
}

/** What the customer's wallet does on the renewal page: sign the offered permit. */
async function signOfferedPermit(
  payer: PrivateKeyAccount,
  offer: Awaited<ReturnType<ReturnType<typeof createRenewalService>['renewalOffer']>>,
) {
  const deadline = BigInt(Math.floor((await chain.chainNowMs()) / 1000)) + 3600n;
  const signature = await payer.signTypedData({
    domain: { ...offer.tokenDomain, verifyingContract: offer.tokenDomain.verifyingContract as Address },
    types: PERMIT_TYPES,
    primaryType: 'Permit',
    message: {
      owner: payer.address,
      spender: offer.spender as Address,
      value: BigInt(offer.permitValue),
      nonce: BigInt(offer.permitNonce),
      deadline,
    },
  });
  return { value: offer.permitValue, deadline: deadline.toString(), signature };
}

describe('subscriptions past the permitted periods', () => {
  it('charges a monthly subscription for 24 periods with one renewal in between: reminder emailed once, at_risk at period 12, recovered by the renewal permit', async () => {
    const email = newEmail();
    const { subscriptionId, handle, payer, schedule } = await enrol({ periods: 24, permitPeriods: ENROLMENT_PERIODS, email });
    const renewals = createRenewalService({ sql: db.sql, chain: chainConfig, temporal: env.client, taskQueue });
    const before = await chain.balanceOf(payer.address);
    const worker = await newWorker();
    await worker.runUntil(async () => {
      // Period 12 is the first the enrolment's allowance cannot pay: skip to just after it is due.
      await env.sleep(periodStart(schedule, 12).getTime() - (await env.currentTimeMs()) + 3_600_000);
      const atRisk = await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'at_risk' && s.nextPeriodIndex === 12,
        'at_risk at period 12',
      );
      expect(atRisk.lastFailure).toBe('insufficient_allowance');
      expect(await allowanceOf(payer.address)).toBe(0n);

      // The reminder went out once, when three periods were left (after period 8), for the window ending at period 12.
      const received = sink.messages({ to: email });
      expect(received).toHaveLength(1);
      expect(received[0]!.subject).toBe('Renew your authorisation for Monthly box (Renewal merchant)');
      expect(received[0]!.text).toContain('covers 3 more payments of 10 USDC');
      expect(await findNotices(db.sql, subscriptionId)).toMatchObject([{ runOutPeriodIndex: 12, allowance: USDC(30).toString() }]);
      const link = linkIn(received[0]!.text);
      expect(link.subscriptionId).toBe(subscriptionId);

      // The customer follows the link: the page's offer, the wallet's permit, the post.
      await expect(renewals.renewalOffer(subscriptionId, 'not-the-token-from-the-email')).rejects.toMatchObject({ code: 'not_found' });
      const offer = await renewals.renewalOffer(subscriptionId, link.token);
      expect(offer).toMatchObject({
        status: 'at_risk',
        subscriber: payer.address,
        spender: chain.subscriptionManagerV2,
        allowance: '0',
        periodsLeft: 0,
      });
      expect(offer.permitValue).toBe((USDC(10) * ENROLMENT_PERIODS).toString());
      const posted = await renewals.renew(subscriptionId, { token: link.token, permit: await signOfferedPermit(payer, offer) });
      expect(posted).toMatchObject({ object: 'checkout_renewal', permitNonce: offer.permitNonce });
      const confirmed = await waitFor(
        () => renewals.renewalStatus(subscriptionId, offer.permitNonce, link.token),
        (r) => r.status !== 'pending',
        'renewal confirmed',
      );
      expect(confirmed).toMatchObject({ status: 'confirmed', failureReason: null });
      expect(await allowanceOf(payer.address)).toBe(USDC(120));

      // The indexer sees the permit's Approval and its allowance hook signals the at_risk subscription.
      const receipt = await chain.pub.getTransactionReceipt({ hash: confirmed.transactionHash as Hex });
      const [approval] = parseEventLogs({ abi: fiatTokenAbi, logs: receipt.logs, eventName: 'Approval' });
      expect(approval!.args).toMatchObject({ owner: payer.address, spender: chain.subscriptionManagerV2, value: USDC(120) });
      expect(await onTransferToSubscriber(deps, { livemode: false, to: approval!.args.owner })).toEqual({ signalled: [subscriptionId] });
      await waitFor(
        () => handle.query(getStatusQuery),
        (s) => s.status === 'active' && s.nextPeriodIndex === 13,
        'active again after the renewal',
      );
      await recordHistory(handle, 'subscription-renewal-recovered', 'base');
      await recordHistory(
        env.client.workflow.getHandle(allowanceRenewalWorkflowId(subscriptionId, offer.permitNonce)),
        'subscription-allowance-renewal',
        'base',
      );

      expect(await handle.result()).toBe('completed');
    });

    const rows = await charges(subscriptionId);
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    expect(rows.filter((r) => r.attempts > 1).map((r) => [r.periodIndex, r.attempts])).toEqual([[12, 2]]);
    expect(before - (await chain.balanceOf(payer.address))).toBe(USDC(240));
    expect(await eventCount(subscriptionId, 'subscription.charged')).toBe(24);
    expect(await eventCount(subscriptionId, 'subscription.charge_failed')).toBe(1);
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(0);
    // The renewed allowance covers the rest of the term exactly: no second reminder.
    expect(sink.messages({ to: email })).toHaveLength(1);
    expect(await renewalEmails(email)).toHaveLength(1);
    expect(await allowanceOf(payer.address)).toBe(0n);
  }, 180_000);

  it('a subscription whose customer never renews is reminded once, goes at_risk on allowance at period 12, then lapses', async () => {
    await setSubscriptionGracePeriodHours(db.sql, merchant.merchantId, 72);
    const email = newEmail();
    const { subscriptionId, handle, log } = await enrol({ periods: 0, permitPeriods: ENROLMENT_PERIODS, email });
    const worker = await newWorker();
    expect(await worker.runUntil(handle.result())).toBe('lapsed');

    const rows = await charges(subscriptionId);
    expect(rows).toHaveLength(13);
    expect(rows.slice(0, 12).every((r) => r.status === 'succeeded')).toBe(true);
    expect(rows[12]).toMatchObject({ periodIndex: 12, status: 'failed', failureCode: 'insufficient_allowance', attempts: 4 });
    expect(await eventCount(subscriptionId, 'subscription.lapsed')).toBe(1);
    expect(await chain.isCancelledOnChain(log.args.id.toString())).toBe(true);
    expect(sink.messages({ to: email })).toHaveLength(1);
    expect(await findNotices(db.sql, subscriptionId)).toMatchObject([{ runOutPeriodIndex: 12 }]);

    // The link of a lapsed subscription still opens (the customer sees why), but renews nothing.
    const renewals = createRenewalService({ sql: db.sql, chain: chainConfig, temporal: env.client, taskQueue });
    const { token } = linkIn(sink.messages({ to: email })[0]!.text);
    const permit = { value: USDC(120).toString(), deadline: '99999999999', signature: `0x${'11'.repeat(65)}` };
    await expect(renewals.renew(subscriptionId, { token, permit })).rejects.toMatchObject({ code: 'session_invalid_state' });
  }, 180_000);

  it('the reminder of a renewal window is queued and sent once, however often the check runs', async () => {
    const email = newEmail();
    // Three periods permitted: after period 0 two are left, which is within the notice.
    const { subscriptionId, handle } = await enrol({ periods: 0, permitPeriods: 3n, email });
    const worker = await newWorker();
    await worker.runUntil(async () => {
      await waitFor(
        () => renewalEmails(email),
        (rows) => rows.length === 1 && rows[0]!.sentAt !== null,
        'the reminder',
      );
      // A retried activity, and the check of the next periods in the same window: nothing new.
      const activities = createSubscriptionRenewalActivities({
        sql: db.sql,
        subscriptionChain: chain.subscriptionChain,
        emails: sendingEmails(),
        publicBaseUrl: PUBLIC_BASE_URL,
      });
      expect(await activities.noteAllowanceAfterCharge({ subscriptionId, periodIndex: 0 })).toEqual({
        periodsLeft: 2,
        notice: 'already_noticed',
      });
      expect(await activities.noteAllowanceAfterCharge({ subscriptionId, periodIndex: 0 })).toEqual({
        periodsLeft: 2,
        notice: 'already_noticed',
      });
      // Delivering the queued email again sends nothing either (idempotent by email id).
      const [queued] = await renewalEmails(email);
      expect(await createEmailActivities({ sql: db.sql, temporal: env.client, taskQueue, mailer }).sendQueuedEmail(queued!.id)).toBe(false);
      await handle.signal(cancelSubscriptionSignal, { by: 'merchant', reason: 'end of test' });
      expect(await handle.result()).toBe('cancelled');
    });
    expect(await renewalEmails(email)).toHaveLength(1);
    expect(sink.messages({ to: email })).toHaveLength(1);
    expect(await findNotices(db.sql, subscriptionId)).toMatchObject([{ runOutPeriodIndex: 3, allowance: USDC(20).toString() }]);
  });
});
