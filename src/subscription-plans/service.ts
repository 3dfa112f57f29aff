// Subscription plans: the terms a customer's wallet enrols into.
import type { Sql } from '../db/client.js';
import { chainFor, type ChainConfig } from '../chain/config.js';
import { ApiError, InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { Db } from '../db/client.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import type { CreatePlanBody, Plan, PlanListQuery, UpdatePlanBody } from './schemas.js';
import type { EventType } from '../events/types.js';
import { findMeter } from '../billing-meters/repo.js';
import { DEFAULT_USAGE_GRACE_SECONDS, type MeteredPrice } from './metered-prices.js';

export function renderPlan(row: repo.PlanRow): Plan {
  return {
    id: row.id,
    object: 'subscription_plan',
    name: row.name,
    amount: row.amount,
    currency: row.currency,
    interval: row.interval,
    intervalCount: row.intervalCount,
    trialPeriodDays: row.trialPeriodDays,
    trialEndBehavior: row.trialEndBehavior,
    chainIds: row.chainIds,
    meteredPrices: row.meteredPrices,
    usageCap: row.usageCap,
    usageGracePeriodSeconds: row.usageGracePeriodSeconds,
    usageThreshold: row.usageThreshold,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The chains a new plan is offered on: each must be one of the mode's (the envelope names the entry);
 * repeats are dropped. Absent: null, every chain of the mode.
 */
function offeredChains(chain: ChainConfig | undefined, livemode: boolean, chainIds: number[] | undefined): number[] | null {
  if (!chainIds) return null;
  const offered: number[] = [];
  for (const [i, chainId] of chainIds.entries()) {
    try {
      if (chain) chainFor(chain, livemode, chainId);
      else throw new InvalidRequestError('This deployment has no chains configured.', { param: 'chainIds' });
    } catch (error) {
      if (error instanceof ApiError) throw new InvalidRequestError(error.message, { param: `chainIds.${i}` });
      throw error;
    }
    if (!offered.includes(chainId)) offered.push(chainId);
  }
  return offered;
}

/** Each metered price names an active meter of the plan's merchant and mode (the envelope names the entry). */
async function checkMetersOf(db: Db, scope: MerchantScope, prices: MeteredPrice[]): Promise<void> {
  for (const [i, price] of prices.entries()) {
    const meter = await findMeter(db, scope, price.meterId);
    if (!meter || meter.status !== 'active')
      throw new InvalidRequestError(`No active billing meter ${price.meterId} in this mode.`, { param: `meteredPrices.${i}.meterId` });
  }
}

/** `chain`: the deployment's chains, which a plan's `chainIds` must be among. */
export function createPlanService({ sql, events, chain }: { sql: Sql; events: EventDispatcher; chain?: ChainConfig }) {
  /** Locks the plan, applies one change and records its event in the same transaction. */
  async function planChange(
    scope: MerchantScope,
    id: string,
    type: EventType,
    change: (tx: Db, current: repo.PlanRow) => Promise<repo.PlanRow | undefined>,
  ): Promise<Plan> {
    return commitWithEvents(sql, events, async (tx, record) => {
      const current = await repo.findPlan(tx, scope, id, { lock: true });
      if (!current) throw new NotFoundError(`No such subscription plan: ${id}.`, { param: 'id' });
      const changed = await change(tx, current);
      if (!changed) return renderPlan(current);
      const plan = renderPlan(changed);
      await record({ ...scope, type, data: { object: plan } });
      return plan;
    });
  }

  return {
    async create(scope: MerchantScope, input: CreatePlanBody): Promise<Plan> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const { chainIds, meteredPrices, usageCap, usageGracePeriodSeconds, usageThreshold, ...terms } = input;
        if (meteredPrices) await checkMetersOf(tx, scope, meteredPrices);
        const metered = meteredPrices && {
          prices: meteredPrices,
          usageCap: usageCap!,
          usageGracePeriodSeconds: usageGracePeriodSeconds ?? DEFAULT_USAGE_GRACE_SECONDS,
          ...(usageThreshold ? { usageThreshold } : {}),
        };
        const plan = renderPlan(
          await repo.insertPlan(tx, {
            id: newId('plan'),
            ...scope,
            ...terms,
            chainIds: offeredChains(chain, scope.livemode, chainIds),
            ...(metered ? { metered } : {}),
          }),
        );
        await record({ ...scope, type: 'subscription_plan.created', data: { object: plan } });
        return plan;
      });
    },

    async get(scope: MerchantScope, id: string): Promise<Plan> {
      const row = await repo.findPlan(sql, scope, id);
      if (!row) throw new NotFoundError(`No such subscription plan: ${id}.`, { param: 'id' });
      return renderPlan(row);
    },

    async list(scope: MerchantScope, query: PlanListQuery): Promise<Page<Plan>> {
      const rows = await repo.listPlans(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit, archived: query.archived });
      return toPage(rows, query.limit, renderPlan);
    },

    /** Only the name and the trial end behaviour may change; an archived plan cannot change. A call that changes nothing records no event. */
    async update(scope: MerchantScope, id: string, input: UpdatePlanBody): Promise<Plan> {
      return planChange(scope, id, 'subscription_plan.updated', async (tx, current) => {
        if (current.archivedAt) throw new InvalidStateError(`Subscription plan ${id} is archived and cannot be changed.`, { param: 'id' });
        let changed: repo.PlanRow | undefined;
        if (input.name !== undefined && input.name !== current.name) changed = await repo.renamePlan(tx, id, input.name);
        if (input.trialEndBehavior !== undefined && input.trialEndBehavior !== current.trialEndBehavior)
          changed = await repo.setTrialEndBehavior(tx, id, input.trialEndBehavior);
        return changed;
      });
    },

    /** Stops new enrolments for good; running subscriptions keep their terms. Twice: session_invalid_state. */
    async archive(scope: MerchantScope, id: string): Promise<Plan> {
      return planChange(scope, id, 'subscription_plan.archived', async (tx) => {
        const archived = await repo.archivePlan(tx, id);
        if (!archived) throw new InvalidStateError(`Subscription plan ${id} is already archived.`, { param: 'id' });
        return archived;
      });
    },

    async getForCheckout(id: string): Promise<repo.PlanRow> {
      const row = await repo.findPlanById(sql, id);
      if (!row) throw new NotFoundError(`No such subscription plan: ${id}.`, { param: 'id' });
      return row;
    },
  };
}

export type PlanService = ReturnType<typeof createPlanService>;
