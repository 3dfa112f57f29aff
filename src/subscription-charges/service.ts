// Subscription charges: read-only for the api; the subscription workflow writes them.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import * as repo from './repo.js';
import type { ChargeListQuery, SubscriptionCharge } from './schemas.js';

export function renderCharge(row: repo.ChargeRow): SubscriptionCharge {
  return {
    id: row.id,
    object: 'subscription_charge',
    subscriptionId: row.subscriptionId,
    periodIndex: row.periodIndex,
    periodStart: row.periodStart.toISOString(),
    amount: row.amount,
    currency: 'USDC',
    status: row.status,
    attempts: row.attempts,
    transactionHash: row.txHash,
    blockNumber: row.blockNumber,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    attemptedAt: row.attemptedAt?.toISOString() ?? null,
    settledAt: row.settledAt?.toISOString() ?? null,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createChargeService({ sql }: { sql: Sql }) {
  return {
    async get(scope: MerchantScope, id: string): Promise<SubscriptionCharge> {
      const row = await repo.findCharge(sql, scope, id);
      if (!row) throw new NotFoundError(`No such subscription charge: ${id}.`, { param: 'id' });
      return renderCharge(row);
    },

    async list(scope: MerchantScope, query: ChargeListQuery): Promise<Page<SubscriptionCharge>> {
      const rows = await repo.listCharges(sql, scope, { subscriptionId: query.subscriptionId, before: decodeCursor(query.cursor), limit: query.limit });
      return toPage(rows, query.limit, renderCharge);
    },
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
