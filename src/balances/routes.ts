// HTTP route of the payout balances per chain (GET /v1/balances).
import type { FastifyZodInstance } from '../http/types.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { payoutBalanceList } from './schemas.js';
import type { BalanceService } from './service.js';

export function registerBalanceRoutes(app: FastifyZodInstance, balances: BalanceService): void {
  app.route({
    method: 'GET',
    url: '/v1/balances',
    config: { access: access.scope('analytics_read') },
    schema: {
      operationId: 'listPayoutBalances',
      tags: ['Balances'],
      summary: "The payout address's USDC balance on each chain of the mode",
      description:
        "One entry per configured chain of the key's mode: what the payout address holds there now (sweeps of deposits and relayed payments pay it on the chain the money came in on; refunds from the refund allowance are sent from it on that chain). A chain whose node does not answer is listed with `unavailable: true`.",
      response: { 200: payoutBalanceList },
    },
    handler: (request) => balances.list(requestScope(request)),
  });
}
