// Reading customers (created by the subscription projection and by completed payments, never through the API) and
// their metadata, the one thing the merchant writes.
import { createdRangeOf } from '../http/list-filters.js';
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import type { MerchantScope } from '../http/principal.js';
import * as repo from './repo.js';
import type { Customer, CustomerListQuery, UpdateCustomerBody } from './schemas.js';
import { mergeMetadata } from '../http/metadata.js';

export function renderCustomer(row: repo.CustomerSummaryRow): Customer {
  return {
    id: row.id,
    object: 'customer',
    walletAddress: row.walletAddress,
    email: row.email,
    firstSeenAt: row.createdAt.toISOString(),
    subscriptionCount: row.subscriptionCount,
    activeSubscriptionCount: row.activeSubscriptionCount,
    lastSubscribedAt: row.lastSubscribedAt?.toISOString() ?? null,
    succeededChargeCount: row.succeededChargeCount,
    completedPaymentCount: row.completedPaymentCount,
    metadata: row.metadata,
    livemode: row.livemode,
  };
}

export function createCustomerService({ sql }: { sql: Sql }) {
  return {
    async get(scope: MerchantScope, id: string): Promise<Customer> {
      const row = await repo.findCustomer(sql, scope, id);
      if (!row) throw new NotFoundError(`No such customer: ${id}.`, { param: 'id' });
      return renderCustomer(row);
    },

    /** The merchant's metadata (merged; "" removes a key). The catalogue has no customer event, so none is sent. */
    async update(scope: MerchantScope, id: string, input: UpdateCustomerBody): Promise<Customer> {
      await sql.begin(async (tx) => {
        const current = await repo.lockCustomerMetadata(tx, scope, id);
        if (!current) throw new NotFoundError(`No such customer: ${id}.`, { param: 'id' });
        if (input.metadata) await repo.setCustomerMetadata(tx, id, mergeMetadata(current, input.metadata));
      });
      return this.get(scope, id);
    },

    async list(scope: MerchantScope, query: CustomerListQuery): Promise<Page<Customer>> {
      const rows = await repo.listCustomers(sql, scope, {
        walletAddress: query.walletAddress,
        email: query.email,
        metadata: query.metadata,
        ...createdRangeOf(query),
        q: query.q,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, renderCustomer);
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
