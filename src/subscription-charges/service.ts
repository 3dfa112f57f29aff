// Subscription charges: read-only for the api; the subscription workflow writes them.
import { listedChainId, type ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { renderCharge } from './api-shape.js';
import * as repo from './repo.js';
import type { ChargeListQuery, SubscriptionCharge } from './schemas.js';

/** `chain`: the deployment's chains, for the list's `chainId` filter. */
export function createChargeService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
  return {
    async get(scope: MerchantScope, id: string): Promise<SubscriptionCharge> {
      const row = await repo.findCharge(sql, scope, id);
      if (!row) throw new NotFoundError(`No such subscription charge: ${id}.`, { param: 'id' });
      return renderCharge(row);
    },

    async list(scope: MerchantScope, query: ChargeListQuery): Promise<Page<SubscriptionCharge>> {
      const rows = await repo.listCharges(sql, scope, {
        subscriptionId: query.subscriptionId,
        chainId: listedChainId(chain, scope.livemode, query.chainId),
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderCharge);
    },
  };
}

export type ChargeService = ReturnType<typeof createChargeService>;
