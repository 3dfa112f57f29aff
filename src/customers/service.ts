// Reading customers (created by the subscription projection and by completed payments, never through the API) and
// their metadata, the one thing the merchant writes.
import { createdRangeOf } from '../http/list-filters.js';
import type { Sql } from '../db/client.js';
import { NotFoundError } from '../errors.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import type { MerchantScope } from '../http/principal.js';
import * as repo from './repo.js';
import type { Customer, CustomerListQuery, UpdateCustomerBody } from './schemas.js';
import { updateMetadata } from '../http/metadata.js';
import { commitWithEvents } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';

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

export function createCustomerService({ sql, events }: { sql: Sql; events: EventDispatcher }) {
  return {
    async get(scope: MerchantScope, id: string): Promise<Customer> {
      const row = await repo.findCustomer(sql, scope, id);
      if (!row) throw new NotFoundError(`No such customer: ${id}.`, { param: 'id' });
      return renderCustomer(row);
    },

    /** The merchant's metadata (merged; "" removes a key), with `customer.updated` when it changed (none when not). */
    async update(scope: MerchantScope, id: string, input: UpdateCustomerBody): Promise<Customer> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const rendered = async () => renderCustomer((await repo.findCustomer(tx, scope, id))!);
        const outcome = await updateMetadata(tx, 'customers', scope, id, input.metadata, async (previous) => {
          await record({
            ...scope,
            type: 'customer.updated',
            data: { object: await rendered(), previousAttributes: { metadata: previous } },
          });
        });
        if (!outcome) throw new NotFoundError(`No such customer: ${id}.`, { param: 'id' });
        return rendered();
      });
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
