// HTTP routes of the x402 facilitator: the base URL a seller gives the official
// x402 facilitator client is `<api>/v1/x402`, with its secret key as the Bearer
// token for each path. Secret keys only, like the relay it settles through.
import { withSafeChainErrors } from '../chain/clients.js';
import { access } from '../http/access.js';
import { requestScope } from '../http/principal.js';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { facilitatorRequest, settleResponse, supportedResponse, verifyResponse } from './schemas.js';
import type { X402Service } from './service.js';

const PROTOCOL =
  "x402 version 2, scheme `exact` on EVM (EIP-3009 transferWithAuthorization of the mode's USDC, to the merchant's payout address or the deposit address of one of its open payment sessions in the mode). The mode is the key's: a test key settles on the test chain, a live key on the live one. A well-formed x402 request is always answered 200 in x402's shape; a body that is not one is `invalid_request`.";

export function registerX402Routes(app: FastifyZodInstance, x402: ServiceOn<X402Service>): void {
  app.route({
    method: 'GET',
    url: '/v1/x402/supported',
    config: { access: access.secretKey('relay_read') },
    schema: {
      tags: ['x402'],
      operationId: 'getX402Supported',
      summary: "x402: what this facilitator settles in the key's mode",
      description: `${PROTOCOL} Lists \`exact\` on \`eip155:<chainId>\` when the mode has a chain and a relayer, nothing otherwise.`,
      response: { 200: supportedResponse },
    },
    handler: (request) => x402(request.db).supported(requestScope(request)),
  });

  app.route({
    method: 'POST',
    url: '/v1/x402/verify',
    config: { access: access.secretKey('relay_write') },
    schema: {
      tags: ['x402'],
      operationId: 'verifyX402Payment',
      summary: 'x402: verify a payment without settling it',
      description: `${PROTOCOL} Checks the signature (ECDSA, or ERC-1271 through a simulation), the recipient, the time window against chain time, the amount, the nonce, the balance, and simulates the transfer at the next block's time (blacklist, pause).`,
      body: facilitatorRequest,
      response: { 200: verifyResponse },
    },
    handler: (request) => withSafeChainErrors(() => x402(request.db).verify(requestScope(request), request.body)),
  });

  app.route({
    method: 'POST',
    url: '/v1/x402/settle',
    // The answer waits for the relay worker, which must see the settlement's rows: they commit first.
    config: { access: access.secretKey('relay_write'), commitsBeforeResponse: true },
    schema: {
      tags: ['x402'],
      operationId: 'settleX402Payment',
      summary: 'x402: settle a payment on chain, exactly once',
      description: `${PROTOCOL} Verifies, then records a payment session and a relay submission of the authorization and answers once the transfer is included. The same authorization settled again, or concurrently, answers with the same transaction; funds move once. If inclusion takes longer than the wait, the answer is \`settlement_pending\` with the transaction: settle again to read the outcome.`,
      body: facilitatorRequest,
      response: { 200: settleResponse },
    },
    handler: (request) => withSafeChainErrors(() => x402(request.db).settle(requestScope(request), request.body)),
  });
}
