// Subscription plans: the terms a customer's wallet enrols into.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { commitWithEvents } from '../events/commit.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type ListQuery, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import * as repo from './repo.js';
import type { CreatePlanBody, Plan } from './schemas.js';

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
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createPlanService({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  return {
    async create(scope: MerchantScope, input: CreatePlanBody): Promise<Plan> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const plan = renderPlan(await repo.insertPlan(tx, { id: newId('plan'), ...scope, ...input }));
        await record({ ...scope, type: 'subscription_plan.created', data: { object: plan } });
        return plan;
      });
    },

    async get(scope: MerchantScope, id: string): Promise<Plan> {
      const row = await repo.findPlan(sql, scope, id);
      if (!row) throw new NotFoundError(`No such subscription plan: ${id}.`, { param: 'id' });
      return renderPlan(row);
    },

    async list(scope: MerchantScope, query: ListQuery): Promise<Page<Plan>> {
      const rows = await repo.listPlans(sql, scope, { before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderPlan);
    },

    async getForCheckout(id: string): Promise<repo.PlanRow> {
      const row = await repo.findPlanById(sql, id);
      if (!row) throw new NotFoundError(`No such subscription plan: ${id}.`, { param: 'id' });
      return row;
    },
  };
}

export type PlanService = ReturnType<typeof createPlanService>;
