// Activities of allowance renewal (src/subscriptions/renewals.ts): the notice
// after a charge, and the on-chain submission of a renewal permit. Both are
// idempotent: the notice by its window (subscription, run-out period), the
// permit by its signature (one operator transaction per purpose).
import { Context } from '@temporalio/activity';
import { formatUnits, type Hex } from 'viem';
import type { Sql } from '../src/db/client.js';
import { queueEmail, type EmailDispatcher } from '../src/email/service.js';
import { findMerchantDisplay } from '../src/payment-sessions/repo.js';
import { findPlanById } from '../src/subscription-plans/repo.js';
import type { AllowancePermitResult, SubscriptionChain } from '../src/subscriptions/chain.js';
import * as repo from '../src/subscriptions/repo.js';
import { insertNoticeIfAbsent, setNoticeEmail } from '../src/subscriptions/renewal-repo.js';
import {
  PERMIT_PERIODS,
  RENEWAL_EMAIL_KIND,
  RENEWAL_NOTICE_PERIODS,
  hashRenewalToken,
  newRenewalToken,
  renewalUrl,
} from '../src/subscriptions/renewals.js';

export type RenewalActivityDeps = { sql: Sql; subscriptionChain: SubscriptionChain; emails: EmailDispatcher; publicBaseUrl: string };

export type AllowanceNotice = {
  /** Whole periods of this subscription's amount the allowance still pays. */
  periodsLeft: number;
  notice: 'not_needed' | 'queued' | 'no_email' | 'already_noticed';
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function createSubscriptionRenewalActivities({ sql, subscriptionChain, emails, publicBaseUrl }: RenewalActivityDeps) {
  return {
    /**
     * After period `periodIndex` was charged: reads the allowance left on-chain and, when it pays
     * RENEWAL_NOTICE_PERIODS periods or fewer while the term needs more, writes the window's notice
     * and queues the renewal email (once per window). `allowance`: the allowance left, when the
     * charge's batch already read it (base units); absent: read here.
     */
    async noteAllowanceAfterCharge(input: { subscriptionId: string; periodIndex: number; allowance?: string }): Promise<AllowanceNotice> {
      const sub = await repo.findSubscriptionById(sql, input.subscriptionId);
      if (!sub) throw new Error(`subscription ${input.subscriptionId} does not exist`);
      const allowance =
        input.allowance !== undefined
          ? BigInt(input.allowance)
          : await subscriptionChain.allowance({
              livemode: sub.livemode,
              chainId: sub.chainId,
              token: sub.tokenAddress,
              owner: sub.subscriberAddress,
              contractAddress: sub.contractAddress,
            });
      const periodsLeft = Number(allowance / BigInt(sub.amount));
      const termLeft = sub.periods === 0 ? Infinity : sub.periods - (input.periodIndex + 1);
      if (repo.TERMINAL_STATUSES.includes(sub.status) || termLeft <= periodsLeft || periodsLeft > RENEWAL_NOTICE_PERIODS) {
        return { periodsLeft, notice: 'not_needed' };
      }
      const runOutPeriodIndex = input.periodIndex + 1 + periodsLeft;
      const token = newRenewalToken();
      const outcome = await sql.begin(async (tx) => {
        if (
          !(await insertNoticeIfAbsent(tx, { subscriptionId: sub.id, runOutPeriodIndex, allowance, tokenHash: hashRenewalToken(token) }))
        ) {
          return { notice: 'already_noticed' as const, emailId: null };
        }
        if (!sub.customerEmail) return { notice: 'no_email' as const, emailId: null };
        const [merchant, plan] = await Promise.all([findMerchantDisplay(tx, sub), findPlanById(tx, sub.planId)]);
        const merchantName = merchant?.name ?? 'the merchant';
        const planName = plan?.name ?? 'your subscription';
        const amount = `${formatUnits(BigInt(sub.amount), 6)} USDC`;
        const emailId = await queueEmail(tx, {
          merchantId: sub.merchantId,
          livemode: sub.livemode,
          to: sub.customerEmail,
          kind: RENEWAL_EMAIL_KIND,
          subject: `Renew your authorisation for ${planName} (${merchantName})`,
          text: [
            `The authorisation your wallet gave ${merchantName} for ${planName} covers ${plural(periodsLeft, 'more payment')} of ${amount}.`,
            `To keep your subscription running after that, renew it here:`,
            '',
            renewalUrl(publicBaseUrl, sub.id, token),
            '',
            `The page asks your wallet to sign an allowance for ${PERMIT_PERIODS} more payments. Nothing is paid when you sign; each payment is still taken only when it is due.`,
          ].join('\n'),
        });
        await setNoticeEmail(tx, sub.id, runOutPeriodIndex, emailId);
        return { notice: 'queued' as const, emailId };
      });
      if (outcome.emailId) await emails.dispatch(sql, [outcome.emailId]);
      return { periodsLeft, notice: outcome.notice };
    },

    /** Submits a renewal permit the subscriber signed on the hosted page (the operator pays the gas). */
    async submitAllowancePermit(input: {
      subscriptionId: string;
      value: string;
      deadline: string;
      signature: string;
    }): Promise<AllowancePermitResult> {
      const sub = await repo.findSubscriptionById(sql, input.subscriptionId);
      if (!sub) throw new Error(`subscription ${input.subscriptionId} does not exist`);
      // A chain activity: heartbeat while the receipt is awaited (CHAIN_ACTIVITY's heartbeat timeout).
      const context = Context.current();
      context.heartbeat();
      const timer = setInterval(() => context.heartbeat(), 2_000);
      try {
        return await subscriptionChain.permit({
          livemode: sub.livemode,
          chainId: sub.chainId,
          token: sub.tokenAddress,
          owner: sub.subscriberAddress,
          value: input.value,
          deadline: input.deadline,
          signature: input.signature as Hex,
          contractAddress: sub.contractAddress,
        });
      } finally {
        clearInterval(timer);
      }
    },
  };
}

export type SubscriptionRenewalActivities = ReturnType<typeof createSubscriptionRenewalActivities>;
