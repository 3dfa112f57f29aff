// Subscription charges: read-only for the api; the subscription workflow writes them.
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { renderCharge } from './api-shape.js';
import * as repo from './repo.js';
import type { ChargeListQuery, SubscriptionCharge } from './schemas.js';

export function createChargeService({ sql }: { sql: Sql }) {
  return {
    async get(scope: MerchantScope, id: string): Promise<SubscriptionCharge> {
      const row = await repo.findCharge(sql, scope, id);
      if (!row) throw new NotFoundError(`No such subscription charge: ${id}.`, { param: 'id' });
      return renderCharge(row);
    },

    async list(scope: MerchantScope, query: ChargeListQuery): Promise<Page<SubscriptionCharge>> {
      const rows = await repo.listCharges(sql, scope, {
        subscriptionId: query.subscriptionId,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderCharge);
    },
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
