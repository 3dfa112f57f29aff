// Public token reads (no credentials): metadata and capabilities, and a wallet's permit nonce.
import type { FastifyZodInstance } from '../http/types.js';
import { withSafeChainErrors } from '../chain/clients.js';
import { access } from '../http/access.js';
import { permitNonce, permitNonceQuery, token, tokenParams, tokenQuery } from './schemas.js';
import type { TokenService } from './service.js';

export function registerTokenRoutes(app: FastifyZodInstance, tokens: TokenService): void {
  app.route({
    method: 'GET',
    url: '/v1/tokens/:address',
    config: { access: access.public() },
    schema: {
      tags: ['Tokens'],
      summary: 'Token metadata, EIP-712 domain and capabilities',
      description:
        "Public. Reads the test mode's chain unless `mode=live`; `chainId` picks another of the mode's chains. Results are cached for a few minutes.",
      params: tokenParams,
      querystring: tokenQuery,
      response: { 200: token },
    },
    handler: (request) => withSafeChainErrors(() => tokens.get(request.params.address, request.query.mode, request.query.chainId)),
  });

  app.route({
    method: 'GET',
    url: '/v1/tokens/:address/permit-nonce',
    config: { access: access.public() },
    schema: {
      tags: ['Tokens'],
      summary: "A wallet's current EIP-2612 permit nonce",
      description: 'Public. The `nonce` field is the value to sign the next permit with. Reads the test chain unless `mode=live`.',
      params: tokenParams,
      querystring: permitNonceQuery,
      response: { 200: permitNonce },
    },
    handler: (request) =>
      withSafeChainErrors(() => tokens.permitNonce(request.params.address, request.query.owner, request.query.mode, request.query.chainId)),
  });
}
