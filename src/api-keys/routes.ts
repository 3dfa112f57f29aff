// Key management endpoints (dashboard sessions only; the spec leaves them to us).
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { optionalBody } from '../http/schemas.js';
import { dashboardActor, dashboardMerchantId } from '../http/principal.js';
import {
  apiKey,
  apiKeyList,
  apiKeyListQuery,
  apiKeyParams,
  auditLog,
  auditLogQuery,
  issueKeyBody,
  issuedApiKey,
  revokeKeyBody,
} from './schemas.js';
import type { ApiKeyService } from './service.js';

const tags = ['API keys'];

export function registerApiKeyRoutes(app: FastifyZodInstance, keys: ServiceOn<ApiKeyService>): void {
  app.route({
    method: 'POST',
    url: '/v1/api-keys',
    config: { access: access.dashboard() },
    schema: {
      tags,
      summary: 'Issue an API key',
      description: 'The secret is returned only in this response. Live keys need live-mode eligibility.',
      body: issueKeyBody,
      response: { 200: issuedApiKey },
    },
    handler: (request) => keys(request.db).issue(dashboardMerchantId(request), dashboardActor(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/v1/api-keys',
    config: { access: access.dashboard() },
    schema: { tags, summary: 'List API keys (never their secrets)', querystring: apiKeyListQuery, response: { 200: apiKeyList } },
    handler: (request) => keys(request.db).list(dashboardMerchantId(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/v1/api-keys/audit-log',
    config: { access: access.dashboard() },
    schema: { tags, summary: 'Read the key audit log (issue, revoke, reveal)', querystring: auditLogQuery, response: { 200: auditLog } },
    handler: (request) => keys(request.db).auditLog(dashboardMerchantId(request), request.query),
  });

  app.route({
    method: 'POST',
    url: '/v1/api-keys/:id/revoke',
    config: { access: access.dashboard() },
    schema: {
      tags,
      summary: 'Revoke an API key',
      description: 'The key returns authentication_error from then on. Keys are never deleted. Rotation = revoke + issue.',
      params: apiKeyParams,
      body: optionalBody(revokeKeyBody),
      response: { 200: apiKey },
    },
    handler: (request) =>
      keys(request.db).revoke(dashboardMerchantId(request), dashboardActor(request), request.params.id, request.body.reason),
  });

  app.route({
    method: 'POST',
    url: '/v1/api-keys/:id/reveal',
    config: { access: access.dashboard() },
    schema: {
      tags,
      summary: 'Reveal the secret of a key issued to replace a leaked one (once)',
      description:
        'When a leaked secret key is rotated automatically, its replacement secret is kept encrypted until the merchant ' +
        'reveals it here, once. It is never emailed. A second call is session_invalid_state.',
      params: apiKeyParams,
      response: { 200: issuedApiKey },
    },
    handler: (request) => keys(request.db).reveal(dashboardMerchantId(request), dashboardActor(request), request.params.id),
  });
}
