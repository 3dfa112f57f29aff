// Reading customers (created by the subscription projection and by completed payments, never through the API).
import { createdRangeOf } from '../http/list-filters.js';
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import type { MerchantScope } from '../http/principal.js';
import * as repo from './repo.js';
import type { Customer, CustomerListQuery } from './schemas.js';

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

    async list(scope: MerchantScope, query: CustomerListQuery): Promise<Page<Customer>> {
      const rows = await repo.listCustomers(sql, scope, {
        walletAddress: query.walletAddress,
        email: query.email,
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
