// Activities of the agent's `recovery` capability (workflows/subscription-recovery.ts,
// docs/agents.md, Recovery): whether the capability is on for a subscription's
// merchant, the customer notice with its top-up link, and one feed record per
// step. Each is idempotent by its business key: the notice by (subscription,
// period), each feed record by its action key.
import { formatUnits } from 'viem';
import * as agentRepo from '../src/agents/repo.js';
import { renderRecoveryNotice, type RecoveryStrategy } from '../src/agents/recovery.js';
import { recordAgentAction } from '../src/agents/service.js';
import type { Sql } from '../src/db/client.js';
import { queueEmail, type EmailDispatcher } from '../src/email/service.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { findMerchantDisplay } from '../src/payment-sessions/repo.js';
import { findPlanById } from '../src/subscription-plans/repo.js';
import * as subscriptionRepo from '../src/subscriptions/repo.js';
import { hashRenewalToken, newRenewalToken, renewalUrl } from '../src/subscriptions/renewals.js';
import { PERMANENT_FAILURES, permanentFailure } from '../src/temporal/failures.js';

export type AgentRecoveryActivityDeps = { sql: Sql; events: EventDispatcher; emails: EmailDispatcher; publicBaseUrl: string };

/** The email kind of the recovery notice (outbound_emails.kind). */
export const RECOVERY_EMAIL_KIND = 'agent_recovery_notice';

export type AgentRecoverySettings = { gracePeriodHours: number; strategy: RecoveryStrategy };

export type RecoveryStep =
  | {
      step: 'charge_retried';
      attempt: number;
      succeeded: boolean;
      trigger: 'scheduled' | 'top_up';
      transactionId: string | null;
      failure: string | null;
    }
  | { step: 'subscription_recovered'; attempt: number; transactionId: string | null }
  | { step: 'subscription_lapsed'; attempts: number };

export function createAgentRecoveryActivities({ sql, events, emails, publicBaseUrl }: AgentRecoveryActivityDeps) {
  const load = async (subscriptionId: string) => {
    const sub = await subscriptionRepo.findSubscriptionById(sql, subscriptionId);
    if (!sub) throw permanentFailure(PERMANENT_FAILURES.subscriptionNotFound, `subscription ${subscriptionId} does not exist`);
    return sub;
  };
  const amountText = (amount: string) => `${formatUnits(BigInt(amount), 6)} USDC`;

  return {
    /** The recovery settings when `recovery` is among the merchant's enabled capabilities in the subscription's mode; null otherwise. */
    async findAgentRecovery(input: { subscriptionId: string }): Promise<AgentRecoverySettings | null> {
      const sub = await load(input.subscriptionId);
      const config = await agentRepo.findConfig(sql, { merchantId: sub.merchantId, livemode: sub.livemode });
      if (!config?.config.enabledCapabilities.includes('recovery')) return null;
      return { gracePeriodHours: config.config.recovery.gracePeriodHours, strategy: config.config.recovery.strategy as RecoveryStrategy };
    },

    /**
     * The start of the agent's work on an at_risk period: writes the period's notice with a top-up
     * link, queues the customer email rendered from the merchant's template (when the customer left
     * an email), and records `recovery_started` and `customer_notified`. Once per period.
     */
    async startAgentRecovery(input: {
      subscriptionId: string;
      periodIndex: number;
      strategy: RecoveryStrategy;
      gracePeriodHours: number;
      graceDeadline: string;
      retryAt: string[];
    }): Promise<{ notified: boolean }> {
      const sub = await load(input.subscriptionId);
      const scope = { merchantId: sub.merchantId, livemode: sub.livemode };
      const key = `recovery:${sub.id}:${input.periodIndex}`;
      const token = newRenewalToken();
      const { eventIds, emailId } = await sql.begin(async (tx) => {
        const config = await agentRepo.findConfig(tx, scope);
        const [merchant, plan] = await Promise.all([findMerchantDisplay(tx, sub), findPlanById(tx, sub.planId)]);
        const merchantName = merchant?.name ?? 'the merchant';
        const planName = plan?.name ?? 'your subscription';
        const eventIds: (string | undefined)[] = [];
        eventIds.push(
          await recordAgentAction(tx, {
            ...scope,
            capability: 'recovery',
            actionType: 'recovery_started',
            outcome: 'succeeded',
            summary: `Subscription ${sub.id} is at risk (period ${input.periodIndex}): ${input.retryAt.length} ${input.retryAt.length === 1 ? 'retry' : 'retries'} planned (${input.strategy}) before ${input.graceDeadline}.`,
            actionKey: `${key}:started`,
            subscriptionId: sub.id,
            details: {
              periodIndex: input.periodIndex,
              strategy: input.strategy,
              gracePeriodHours: input.gracePeriodHours,
              graceDeadline: input.graceDeadline,
              retryAt: input.retryAt,
            },
          }),
        );
        if (
          !(await agentRepo.insertRecoveryNotice(tx, {
            subscriptionId: sub.id,
            periodIndex: input.periodIndex,
            tokenHash: hashRenewalToken(token),
            graceDeadline: new Date(input.graceDeadline),
          }))
        ) {
          return { eventIds, emailId: null };
        }
        let emailId: string | null = null;
        if (sub.customerEmail) {
          const text = renderRecoveryNotice(config?.config.recovery.notificationTemplate ?? '', {
            merchantName,
            planName,
            amount: amountText(sub.amount),
            currency: 'USDC',
            subscriptionId: sub.id,
            customerEmail: sub.customerEmail,
            status: 'at_risk',
            graceDeadline: input.graceDeadline,
            topUpUrl: renewalUrl(publicBaseUrl, sub.id, token),
          });
          emailId = await queueEmail(tx, {
            ...scope,
            to: sub.customerEmail,
            kind: RECOVERY_EMAIL_KIND,
            subject: `Your payment for ${planName} failed (${merchantName})`,
            text,
          });
          await agentRepo.setRecoveryNoticeEmail(tx, sub.id, input.periodIndex, emailId);
        }
        eventIds.push(
          await recordAgentAction(tx, {
            ...scope,
            capability: 'recovery',
            actionType: 'customer_notified',
            outcome: emailId ? 'succeeded' : 'failed',
            summary: emailId
              ? `Emailed the customer of subscription ${sub.id} the recovery notice with a top-up link.`
              : `Could not email the customer of subscription ${sub.id}: no email address on file.`,
            actionKey: `${key}:notified`,
            subscriptionId: sub.id,
            details: { periodIndex: input.periodIndex, emailId },
          }),
        );
        return { eventIds, emailId };
      });
      if (emailId) await emails.dispatch(sql, [emailId]);
      await events.dispatch(
        sql,
        eventIds.filter((id): id is string => id !== undefined),
      );
      return { notified: emailId !== null };
    },

    /** One feed record of a recovery step; a retried activity records it once. */
    async recordAgentRecoveryStep(input: { subscriptionId: string; periodIndex: number } & RecoveryStep): Promise<void> {
      const sub = await load(input.subscriptionId);
      const key = `recovery:${sub.id}:${input.periodIndex}`;
      const base = { merchantId: sub.merchantId, livemode: sub.livemode, capability: 'recovery' as const, subscriptionId: sub.id };
      const eventId = await sql.begin((tx) => {
        switch (input.step) {
          case 'charge_retried':
            return recordAgentAction(tx, {
              ...base,
              actionType: 'charge_retried',
              outcome: input.succeeded ? 'succeeded' : 'failed',
              summary: input.succeeded
                ? `Retried the charge of ${amountText(sub.amount)} for subscription ${sub.id} (attempt ${input.attempt}, ${input.trigger === 'top_up' ? 'after a top-up' : 'scheduled'}): paid.`
                : `Retried the charge of ${amountText(sub.amount)} for subscription ${sub.id} (attempt ${input.attempt}, ${input.trigger === 'top_up' ? 'after a top-up' : 'scheduled'}): refused (${input.failure ?? 'unknown'}).`,
              actionKey: `${key}:attempt:${input.attempt}`,
              transactionId: input.transactionId,
              details: { periodIndex: input.periodIndex, attempt: input.attempt, trigger: input.trigger, failure: input.failure },
            });
          case 'subscription_recovered':
            return recordAgentAction(tx, {
              ...base,
              actionType: 'subscription_recovered',
              outcome: 'succeeded',
              summary: `Subscription ${sub.id} recovered: period ${input.periodIndex} paid on attempt ${input.attempt}; back to active.`,
              actionKey: `${key}:recovered`,
              transactionId: input.transactionId,
              details: { periodIndex: input.periodIndex, attempt: input.attempt },
            });
          case 'subscription_lapsed':
            return recordAgentAction(tx, {
              ...base,
              actionType: 'subscription_lapsed',
              outcome: 'failed',
              summary: `Subscription ${sub.id} not recovered within its grace window (${input.attempts} attempts for period ${input.periodIndex}); it lapses.`,
              actionKey: `${key}:lapsed`,
              details: { periodIndex: input.periodIndex, attempts: input.attempts },
            });
        }
      });
      if (eventId) await events.dispatch(sql, [eventId]);
    },
  };
}

export type AgentRecoveryActivities = ReturnType<typeof createAgentRecoveryActivities>;
