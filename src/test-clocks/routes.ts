// HTTP routes of test clocks (test mode only; a live key gets permission_denied).
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import {
  advanceTestClockBody,
  attachWalletsBody,
  createTestClockBody,
  testClock,
  testClockList,
  testClockListQuery,
  testClockParams,
} from './schemas.js';
import type { TestClockService } from './service.js';

const TAGS = ['Test clocks'];
const TEST_ONLY = 'Test mode only: a live key is refused with `permission_denied`.';

export function registerTestClockRoutes(app: FastifyZodInstance, clocks: ServiceOn<TestClockService>): void {
  app.route({
    method: 'POST',
    url: '/v1/test-clocks',
    // A secret key or a dashboard session (the Test clocks page), like the clock's other actions.
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: TAGS,
      summary: 'Create a test clock',
      description: `${TEST_ONLY} Moves the test chain to \`frozenTime\` (never backwards) and attaches the given payer wallets.`,
      body: createTestClockBody,
      response: { 200: testClock },
    },
    handler: (request) => clocks(request.db).create(requestScope(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/test-clocks',
    config: { access: access.scope('subscriptions_read') },
    schema: {
      tags: TAGS,
      summary: 'List test clocks',
      description: TEST_ONLY,
      querystring: testClockListQuery,
      response: { 200: testClockList },
    },
    handler: (request) => clocks(request.db).list(requestScope(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/test-clocks/:id',
    config: { access: access.scope('subscriptions_read') },
    schema: { tags: TAGS, summary: 'Retrieve a test clock', description: TEST_ONLY, params: testClockParams, response: { 200: testClock } },
    handler: (request) => clocks(request.db).get(requestScope(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/v1/test-clocks/:id/wallets',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: TAGS,
      summary: 'Attach payer wallets to a test clock',
      description: `${TEST_ONLY} Running subscriptions of these wallets wait on the clock from now on.`,
      params: testClockParams,
      body: attachWalletsBody,
      response: { 200: testClock },
    },
    handler: (request) => clocks(request.db).attachWallets(requestScope(request), request.params.id, request.body),
  });

  app.route({
    method: 'POST',
    url: '/v1/test-clocks/:id/advance',
    config: { access: access.scope('subscriptions_write') },
    schema: {
      tags: TAGS,
      summary: 'Advance a test clock',
      description:
        `${TEST_ONLY} Answers at once with status \`advancing\`; the clock is \`ready\` again once the test chain's time and ` +
        'every workflow on the clock reached `frozenTime`. Forward only, one advance at a time.',
      params: testClockParams,
      body: advanceTestClockBody,
      response: { 200: testClock },
    },
    handler: (request) => clocks(request.db).advance(requestScope(request), request.params.id, request.body),
  });

  // Both spellings: DELETE for REST clients, POST .../delete like the other actions.
  for (const [method, url, operationId] of [
    ['POST', '/v1/test-clocks/:id/delete', 'deleteTestClockByAction'],
    ['DELETE', '/v1/test-clocks/:id', 'deleteTestClock'],
  ] as const) {
    app.route({
      method,
      url,
      config: { access: access.scope('subscriptions_write') },
      schema: {
        tags: TAGS,
        summary: 'Delete a test clock',
        operationId,
        description: `${TEST_ONLY} Cancels the subscriptions on the clock and detaches its wallets.`,
        params: testClockParams,
        response: { 200: testClock },
      },
      handler: (request) => clocks(request.db).delete(requestScope(request), request.params.id),
    });
  }
}
