// Subscriptions: the api reads the read model the workflow keeps, and cancels
// by recording the cancel first, then telling the workflow, which queues the
// on-chain cancel. A completed subscription (its workflow has ended) gets its
// on-chain cancel from a small workflow of its own.
import { listUsageCloses, renderUsageClose } from '../billing-meters/period-close.js';
import { upcomingInvoice } from '../billing-meters/upcoming-invoice.js';
import type { SubscriptionPeriodCloseListQuery } from '../billing-meters/close-schemas.js';
import { createdRangeOf } from '../http/list-filters.js';
import type { Client } from '@temporalio/client';
import { listedChainId, type ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { InvalidStateError, NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { cancelSubscriptionSignal, subscriptionWorkflowId } from '../../workflows/subscription.js';
import { onChainCancelWorkflowId, subscriptionOnChainCancelWorkflow } from '../../workflows/subscription-cancel.js';
import { signalIfRunning } from '../temporal/signals.js';
import { startWorkflowOnce } from '../temporal/start-once.js';
import { renderSubscription } from './api-shape.js';
import { scheduleCancel, undoScheduledCancel } from './cancel-at-period-end.js';
import * as repo from './repo.js';
import { businessNow } from '../test-clocks/business-time.js';
import { findPlanById } from '../subscription-plans/repo.js';
import { chargeDueAt, periodStart } from './periods.js';
import type { CancelSubscriptionBody, Subscription, SubscriptionListQuery, UpdateSubscriptionBody } from './schemas.js';
import { mergeMetadata } from '../http/metadata.js';

export type SubscriptionServiceDeps = {
  sql: Sql;
  /** The deployment's chains, for the list's `chainId` filter (none: every chain id is refused). */
  chain?: ChainConfig;
  events: EventDispatcher;
  /** Absent in tests without workflows: the workflow then sees the cancel in the read model before its next charge. */
  temporal?: Client;
  /** Where the worker polls (the on-chain cancel of a completed subscription starts a workflow there). */
  taskQueue?: string;
  onSignalError?: (error: unknown, subscriptionId: string) => void;
};

export function createSubscriptionService({ sql, chain = {}, events, temporal, taskQueue, onSignalError }: SubscriptionServiceDeps) {
  const notFound = (id: string) => new NotFoundError(`No such subscription: ${id}.`, { param: 'id' });

  /** Queues the on-chain cancel of a subscription whose own workflow has ended (idempotent; it waits for the cancel record). */
  const startOnChainCancel = async (scope: MerchantScope, id: string, chainId: number): Promise<void> => {
    if (!temporal || !taskQueue) return;
    await startWorkflowOnce(temporal, subscriptionOnChainCancelWorkflow, {
      workflowId: onChainCancelWorkflowId(id),
      taskQueue,
      args: [{ subscriptionId: id }],
      tags: { ...scope, object: 'subscription', objectId: id, businessStatus: 'cancelled', chainId },
    });
  };

  return {
    /** A metered subscription's period closes, newest first (a fixed plan's: none). */
    async periodCloses(scope: MerchantScope, id: string, query: SubscriptionPeriodCloseListQuery) {
      const row = await repo.findSubscription(sql, scope, id);
      if (!row) throw notFound(id);
      const rows = await listUsageCloses(sql, row.id, { before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderUsageClose);
    },

    /** What the next charge would bill if usage stopped now (src/billing-meters/upcoming-invoice.ts). */
    async upcomingInvoice(scope: MerchantScope, id: string) {
      const row = await repo.findSubscription(sql, scope, id);
      if (!row) throw notFound(id);
      return upcomingInvoice(sql, row);
    },

    async get(scope: MerchantScope, id: string): Promise<Subscription> {
      const row = await repo.findSubscription(sql, scope, id);
      if (!row) throw notFound(id);
      return renderSubscription(row);
    },

    async list(scope: MerchantScope, query: SubscriptionListQuery): Promise<Page<Subscription>> {
      const rows = await repo.listSubscriptions(sql, scope, {
        status: query.status,
        planId: query.planId,
        chainId: listedChainId(chain, scope.livemode, query.chainId),
        metadata: query.metadata,
        ...createdRangeOf(query),
        q: query.q,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderSubscription);
    },

    /** `by`: who asked, the merchant (API, dashboard) or the subscriber (the customer portal). */
    async cancel(
      scope: MerchantScope,
      id: string,
      input: CancelSubscriptionBody,
      by: repo.CancellationRequester = 'merchant',
    ): Promise<Subscription> {
      if (input.atPeriodEnd) {
        return commitWithEvents(sql, events, async (tx, record) => {
          const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
          if (!row) throw notFound(id);
          return scheduleCancel(tx, record, scope, row, { requestedBy: by, reason: input.reason, feedback: input.feedback });
        });
      }
      const current = await repo.findSubscription(sql, scope, id);
      if (!current) throw notFound(id);
      // A completed subscription's workflow has ended, so nothing would queue its on-chain cancel:
      // start the workflow that does, before recording (it waits for the record below).
      if (current.status === 'completed') await startOnChainCancel(scope, id, Number(current.chainId));
      const subscription = await commitWithEvents(sql, events, async (tx, record) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        if (repo.FINAL_STATUSES.includes(row.status)) {
          throw new InvalidStateError(`The subscription is already ${row.status} and cannot be cancelled.`);
        }
        await repo.updateSubscription(
          tx,
          id,
          {
            status: 'cancelled',
            cancelReason: input.reason ?? null,
            cancelledBy: by,
            cancelledAt: await businessNow(tx, row),
            nextChargeAt: null,
            atRiskSince: null,
            // Now, not at the period end: a scheduled cancel is replaced by this one.
            cancelAtPeriodEnd: false,
            cancelAt: null,
            cancellationRequestedBy: by,
            cancellationReason: input.reason ?? null,
            cancellationFeedback: input.feedback ?? null,
          },
          { notIn: repo.FINAL_STATUSES },
        );
        const updated = renderSubscription((await repo.findSubscription(tx, scope, id))!);
        await record({ ...scope, type: 'subscription.cancelled', data: { object: updated } });
        return updated;
      });
      if (temporal) {
        try {
          const cancelRequest = { by, ...(input.reason !== undefined ? { reason: input.reason } : {}) };
          // A workflow that ended after the read above (it completed meanwhile) gets the on-chain cancel
          // it can no longer run queued instead. Any other failure is picked up by the workflow's
          // read-model check before its next charge.
          if (!(await signalIfRunning(temporal, subscriptionWorkflowId(id), cancelSubscriptionSignal, cancelRequest))) {
            await startOnChainCancel(scope, id, Number(current.chainId)).catch((failed: unknown) => onSignalError?.(failed, id));
          }
        } catch (error) {
          onSignalError?.(error, id);
        }
      }
      return subscription;
    },

    /** The merchant's metadata (merged; "" removes a key); a change records `subscription.updated`, no change records nothing. */
    async update(scope: MerchantScope, id: string, input: UpdateSubscriptionBody): Promise<Subscription> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        const metadata = input.metadata ? mergeMetadata(row.metadata, input.metadata) : row.metadata;
        if (JSON.stringify(metadata) === JSON.stringify(row.metadata)) return renderSubscription(row);
        await repo.setSubscriptionMetadata(tx, id, metadata);
        const updated = renderSubscription((await repo.findSubscription(tx, scope, id))!);
        await record({ ...scope, type: 'subscription.updated', data: { object: updated, previousAttributes: { metadata: row.metadata } } });
        return updated;
      });
    },

    /** Undoes a cancel scheduled for the period end (`cancelAtPeriodEnd`): the subscription renews as before. */
    async uncancel(scope: MerchantScope, id: string): Promise<Subscription> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const row = await repo.findSubscription(tx, scope, id, { forUpdate: true });
        if (!row) throw notFound(id);
        return undoScheduledCancel(tx, record, scope, row);
      });
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
              nextChargeAt = chargeDueAt(
                start,
                row.onChainFirstPeriodStart ?? row.firstPeriodStart,
                Number(row.periodSeconds),
                index - row.onChainPeriodOffset,
              );
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
