// HTTP routes of the relay: secret API keys only, for every method (spec: the /v1/relay namespace
// needs a secret key); publishable keys and dashboard sessions are refused.
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { withSafeChainErrors } from '../chain/clients.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import { readIdempotencyKey } from '../plugins/idempotency.js';
import { relayPaymentBody, relaySubmission, relaySubscriptionBody, submissionParams } from './schemas.js';
import type { RelayService } from './service.js';

export function registerRelayRoutes(app: FastifyZodInstance, relay: ServiceOn<RelayService>): void {
  app.route({
    method: 'POST',
    url: '/v1/relay/payments',
    config: { access: access.secretKey('relay_write'), idempotencyKeyRequired: true },
    schema: {
      tags: ['Relay'],
      summary: 'Relay a payer-signed EIP-3009 authorization',
      description:
        "Requires `Idempotency-Key`: it names the submission. Before anything is sent the relay checks that the signature recovers `from`, the time window is open, the nonce is unused on-chain, the balance covers the value and the recipient is the merchant's payout address; each refusal is `invalid_request` with the offending `param`. The same authorization is never submitted twice, under any key.",
      body: relayPaymentBody,
      response: { 200: relaySubmission },
    },
    handler: (request) =>
      withSafeChainErrors(() => relay(request.db).submitPayment(requestScope(request), readIdempotencyKey(request), request.body)),
  });

  app.route({
    method: 'POST',
    url: '/v1/relay/subscriptions',
    config: { access: access.secretKey('relay_write'), idempotencyKeyRequired: true },
    schema: {
      tags: ['Relay'],
      summary: 'Relay an EIP-2612 permit plus a subscription enrolment',
      description:
        "Requires `Idempotency-Key`. Submits SubscriptionManager.subscribeWithPermitFor from the relayer account, on the chain `chainId` names (default: the mode's first; a chain the mode lacks is `invalid_request` with `param: chainId`), after checking both signatures against that chain's domains, deadlines, the enrolment nonce, the operator and that `terms.merchant` is the merchant's payout address. Terms that are a plan's of the merchant (amount, period and charge window) offered only on other chains are `invalid_request` with `param: chainId` (the message names the plans and their chains): the platform records an enrolment only for a plan offered on its chain.",
      body: relaySubscriptionBody,
      response: { 200: relaySubmission },
    },
    handler: (request) =>
      withSafeChainErrors(() => relay(request.db).submitSubscription(requestScope(request), readIdempotencyKey(request), request.body)),
  });

  app.route({
    method: 'GET',
    url: '/v1/relay/submissions/:idempotencyKey',
    config: { access: access.secretKey('relay_read') },
    schema: {
      tags: ['Relay'],
      summary: 'On-chain status of a relay submission',
      params: submissionParams,
      response: { 200: relaySubmission },
    },
    handler: (request) => relay(request.db).get(requestScope(request), request.params.idempotencyKey),
  });
}
