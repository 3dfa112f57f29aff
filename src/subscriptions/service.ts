// Subscriptions: the api reads the read model the workflow keeps, and cancels
// by recording the cancel first, then telling the workflow, which queues the
// on-chain cancel. A completed subscription (its workflow has ended) gets its
// on-chain cancel from a small workflow of its own.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Sql } from '../db/client.js';
import { InvalidStateError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { cancelSubscriptionSignal } from '../../workflows/subscription.js';
import { onChainCancelWorkflowId } from '../../workflows/subscription-cancel.js';
import * as repo from './repo.js';
import { findPlanById } from '../subscription-plans/repo.js';
import { periodStart } from './periods.js';
import type { CancelSubscriptionBody, Subscription, SubscriptionListQuery } from './schemas.js';

export function renderSubscription(row: repo.SubscriptionRow): Subscription {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: row.id,
    object: 'subscription',
    planId: row.planId,
    status: row.status,
    customer: { id: row.customerId, walletAddress: row.customerWalletAddress, email: row.customerEmail },
    amount: row.amount,
    currency: 'USDC',
    onChain: {
      chainId: row.chainId,
      contractAddress: row.contractAddress,
      subscriptionId: row.onChainId,
      tokenAddress: row.tokenAddress,
      periodSeconds: row.periodSeconds,
      createdTxHash: row.createdTxHash,
    },
    periods: row.periods,
    firstPeriodStart: row.firstPeriodStart.toISOString(),
    trialEnd: iso(row.trialEnd),
    currentPeriodIndex: row.currentPeriodIndex,
    nextChargeAt: iso(row.nextChargeAt),
    atRiskSince: iso(row.atRiskSince),
    cancelReason: row.cancelReason,
    cancelledBy: row.cancelledBy,
    cancelledAt: iso(row.cancelledAt),
    onChainCancelledAt: iso(row.onChainCancelledAt),
    lapsedAt: iso(row.lapsedAt),
    completedAt: iso(row.completedAt),
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export type SubscriptionServiceDeps = {
  sql: Sql;
  events: EventDispatcher;
  /** Absent in tests without workflows: the workflow then sees the cancel in the read model before its next charge. */
  temporal?: Client;
  /** Where the worker polls (the on-chain cancel of a completed subscription starts a workflow there). */
  taskQueue?: string;
  onSignalError?: (error: unknown, subscriptionId: string) => void;
};

export function createSubscriptionService({ sql, events, temporal, taskQueue, onSignalError }: SubscriptionServiceDeps) {
  const notFound = (id: string) => new NotFoundError(`No such subscription: ${id}.`, { param: 'id' });

  /** Queues the on-chain cancel of a subscription whose own workflow has ended (idempotent; it waits for the cancel record). */
  const startOnChainCancel = async (id: string): Promise<void> => {
    if (!temporal || !taskQueue) return;
    await temporal.workflow
      .start('subscriptionOnChainCancelWorkflow', { workflowId: onChainCancelWorkflowId(id), taskQueue, args: [{ subscriptionId: id }] })
      .catch((error: unknown) => {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      });
  };

  return {
    async get(scope: MerchantScope, id: string): Promise<Subscription> {
      const row = await repo.findSubscription(sql, scope, id);
      if (!row) throw notFound(id);
      return renderSubscription(row);
    },

    async list(scope: MerchantScope, query: SubscriptionListQuery): Promise<Page<Subscription>> {
      const rows = await repo.listSubscriptions(sql, scope, {
        status: query.status,
        planId: query.planId,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderSubscription);
    },

    async cancel(scope: MerchantScope, id: string, input: CancelSubscriptionBody): Promise<Subscription> {
      const current = await repo.findSubscription(sql, scope, id);
      if (!current) throw notFound(id);
      // A completed subscription's workflow has ended, so nothing would queue its on-chain cancel:
      // start the workflow that does, before recording (it waits for the record below).
      if (current.status === 'completed') await startOnChainCancel(id);
      const { subscription, eventId } = await sql.begin(async (tx) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        if (repo.FINAL_STATUSES.includes(row.status)) {
          throw new InvalidStateError(`The subscription is already ${row.status} and cannot be cancelled.`);
        }
        await repo.updateSubscription(
          tx,
          id,
          { status: 'cancelled', cancelReason: input.reason ?? null, cancelledBy: 'merchant', cancelledAt: new Date(), nextChargeAt: null, atRiskSince: null },
          { notIn: repo.FINAL_STATUSES },
        );
        const updated = renderSubscription((await repo.findSubscription(tx, scope, id))!);
        const event = await recordEvent(tx, { ...scope, type: 'subscription.cancelled', data: { object: updated } });
        return { subscription: updated, eventId: event.id };
      });
      await events.dispatch([eventId]);
      if (temporal) {
        try {
          await temporal.workflow.getHandle(id).signal(cancelSubscriptionSignal, { by: 'merchant', reason: input.reason });
        } catch (error) {
          // The workflow ended after the read above (it completed meanwhile): queue the on-chain cancel
          // it can no longer run. Anything else is picked up by the workflow's read-model check
          // before its next charge.
          if (error instanceof WorkflowNotFoundError) await startOnChainCancel(id).catch((failed: unknown) => onSignalError?.(failed, id));
          else onSignalError?.(error, id);
        }
      }
      return subscription;
    },

    /**
     * Pauses an active subscription: every period that comes due while paused
     * is skipped, never charged (and never collected later). The workflow reads
     * the pause from the read model when a period comes due, so no message to it
     * can be lost.
     */
    async pause(scope: MerchantScope, id: string): Promise<Subscription> {
      return sql.begin(async (tx) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        if (row.status !== 'active') throw new InvalidStateError(`Only an active subscription can be paused; this one is ${row.status}.`);
        await repo.updateSubscription(tx, id, { status: 'paused', nextChargeAt: null });
        return renderSubscription((await repo.findSubscription(tx, scope, id))!);
      });
    },

    /** Resumes a paused subscription: the next period that comes due is charged. */
    async resume(scope: MerchantScope, id: string): Promise<Subscription> {
      return sql.begin(async (tx) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        if (row.status !== 'paused') throw new InvalidStateError(`Only a paused subscription can be resumed; this one is ${row.status}.`);
        const plan = await findPlanById(tx, row.planId);
        let nextChargeAt: Date | null = null;
        if (plan) {
          const schedule = { anchor: row.firstPeriodStart, interval: plan.interval, intervalCount: plan.intervalCount };
          const now = Date.now();
          for (let index = (row.currentPeriodIndex ?? -1) + 1; row.periods === 0 || index < row.periods; index++) {
            const start = periodStart(schedule, index);
            if (start.getTime() > now) {
              nextChargeAt = start;
              break;
            }
          }
        }
        await repo.updateSubscription(tx, id, { status: 'active', nextChargeAt });
        return renderSubscription((await repo.findSubscription(tx, scope, id))!);
      });
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
