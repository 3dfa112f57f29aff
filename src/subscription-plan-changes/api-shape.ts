// The API shape of a plan change, from its row or from the waiting change a subscription row carries.
import type { PendingPlanChange } from '../subscriptions/repo.js';
import type { PlanChangeRow } from './repo.js';
import type { PlanChange } from './schemas.js';

/** `hostedUrl`: the approval link of a change that waits for the customer (null otherwise). */
export function renderPlanChange(row: PlanChangeRow, hostedUrl: string | null = null): PlanChange {
  return {
    id: row.id,
    object: 'subscription_plan_change',
    fromPlanId: row.fromPlanId,
    planId: row.toPlanId,
    fromAmount: row.fromAmount,
    amount: row.toAmount,
    status: row.status,
    prorationBehavior: row.prorationBehavior,
    prorationAmount: row.prorationAmount,
    effectiveAt: row.effectiveAt?.toISOString() ?? null,
    hostedUrl,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Postgres renders a timestamptz in json as "2026-01-01T00:00:00+00:00": normalised to the API's ISO form. */
const iso = (value: string) => new Date(value).toISOString();

export function renderPendingPlanChange(pending: PendingPlanChange): PlanChange {
  return {
    id: pending.id,
    object: 'subscription_plan_change',
    fromPlanId: pending.fromPlanId,
    planId: pending.toPlanId,
    fromAmount: pending.fromAmount,
    amount: pending.toAmount,
    status: pending.status,
    prorationBehavior: pending.prorationBehavior,
    prorationAmount: pending.prorationAmount,
    effectiveAt: pending.effectiveAt === null ? null : iso(pending.effectiveAt),
    hostedUrl: pending.hostedUrl ?? null,
    createdAt: iso(pending.createdAt),
  };
}
