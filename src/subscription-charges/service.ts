// Subscription charges: read-only for the api; the subscription workflow writes them.
import { listedChainId, type ChainConfig } from '../chain/config.js';
import type { Sql } from '../db/client.js';
import { InvalidStateError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { findMerchantDisplay } from '../payment-sessions/repo.js';
import { renderCharge } from './api-shape.js';
import { renderChargeReceiptPdf } from './receipt-pdf.js';
import * as repo from './repo.js';
import type { ChargeListQuery, SubscriptionCharge } from './schemas.js';

/** `chain`: the deployment's chains, for the list's `chainId` filter. */
export function createChargeService({ sql, chain }: { sql: Sql; chain: ChainConfig }) {
  async function load(scope: MerchantScope, id: string): Promise<repo.ChargeRow> {
    const row = await repo.findCharge(sql, scope, id);
    if (!row) throw new NotFoundError(`No such subscription charge: ${id}.`, { param: 'id' });
    return row;
  }

  return {
    async get(scope: MerchantScope, id: string): Promise<SubscriptionCharge> {
      return renderCharge(await load(scope, id));
    },

    /** The receipt PDF of a succeeded charge; a charge not paid (yet) has none. */
    async receiptPdf(scope: MerchantScope, id: string): Promise<Buffer> {
      const row = await load(scope, id);
      if (row.status !== 'succeeded') {
        throw new InvalidStateError(`Only a succeeded charge has a receipt; this one is ${row.status}.`, { param: 'id' });
      }
      const merchant = await findMerchantDisplay(sql, scope);
      return renderChargeReceiptPdf(row, merchant?.name ?? 'Your supplier', 'USDC');
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
