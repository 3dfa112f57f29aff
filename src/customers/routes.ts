// HTTP routes of customers. Customers come from subscriptions, so they are read with `subscriptions_read` and
// their metadata written with `subscriptions_write` (docs/decisions.md, Customers).
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import { foldMetadataQuery } from '../http/metadata.js';
import { customer, customerList, customerListQuery, customerParams, updateCustomerBody } from './schemas.js';
import type { CustomerService } from './service.js';

const CUSTOMERS = ['Customers'];

export function registerCustomerRoutes(app: FastifyZodInstance, customers: CustomerService): void {
  app.route({
    method: 'GET',
    url: '/v1/customers',
    config: { access: access.scope('subscriptions_read') },
    preValidation: foldMetadataQuery,
    schema: {
      tags: CUSTOMERS,
      summary: 'List customers',
      description:
        "Newest first. A customer is a wallet that enrolled in one of the merchant's plans or paid one of its payment sessions (docs/decisions.md, One-off payers as customers), with its subscription, charge and payment counts.",
      querystring: customerListQuery,
      response: { 200: customerList },
    },
    handler: (request) => customers.list(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/customers/:id',
    config: { access: access.scope('subscriptions_read') },
    schema: { tags: CUSTOMERS, summary: 'Retrieve a customer', params: customerParams, response: { 200: customer } },
    handler: (request) => customers.get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/customers/:id',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: CUSTOMERS,
      summary: 'Update a customer',
      description:
        'Only `metadata` may change (merged; a key sent as "" is removed): the wallet is who the customer is, and the email is the one they left at checkout.',
      params: customerParams,
      body: updateCustomerBody,
      response: { 200: customer },
    },
    handler: (request) => customers.update(requestScope(request), request.params.id, request.body),
  });
}
