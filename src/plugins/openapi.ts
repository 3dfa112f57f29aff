// The OpenAPI 3.1 document at /openapi.json and the interactive UI at /docs,
// generated from the same zod schemas that validate requests and filter
// responses. Each operation shows its security and its required scope.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorEnvelope } from '../http/schemas.js';
import { CURRENT_API_VERSION } from '../http/versions.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };

function describeAccess(route: RouteOptions): { security: Record<string, string[]>[]; note: string; scope?: string } {
  const access = route.config?.access;
  if (!access || access.kind === 'public') return { security: [], note: 'Public: no credentials.' };
  if (access.kind === 'dashboard') return { security: [{ dashboardSession: [] }], note: 'Dashboard session only.' };
  if (access.kind === 'dashboard_identity') {
    return { security: [{ dashboardSession: [] }], note: 'Dashboard session only; works before the merchant exists.' };
  }
  return {
    security: [{ apiKey: [] }],
    note: access.secretKeyOnly ? `Secret API key only. Required scope: \`${access.scope}\`.` : `Required scope: \`${access.scope}\`.`,
    scope: access.scope,
  };
}

function transform(input: TransformInput) {
  // The error envelope goes in as a zod schema like any other response, so the shared transform
  // turns it into a reference to components.schemas.Error.
  const withErrors = input.schema && !(input.schema as { hide?: boolean }).hide
    ? { ...input, schema: { ...input.schema, response: { ...((input.schema.response as object | undefined) ?? {}), default: errorEnvelope } } }
    : input;
  const { schema, url } = jsonSchemaTransform(withErrors);
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const { security, note, scope } = describeAccess(input.route);
  const method = String(input.route.method).toUpperCase();
  const described = schema as Record<string, unknown> & { response?: Record<string, unknown>; description?: string };
  const headers =
    method === 'POST'
      ? {
          type: 'object',
          properties: {
            'Idempotency-Key': {
              type: 'string',
              maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
              description: 'Makes a retried POST safe: the first response is replayed for 24 hours.',
            },
            ...((described.headers as { properties?: object } | undefined)?.properties ?? {}),
          },
        }
      : described.headers;
  return {
    schema: {
      ...described,
      ...(headers ? { headers } : {}),
      security,
      description: [described.description, note].filter(Boolean).join('\n\n'),
      ...(scope ? { 'x-required-scope': scope } : {}),
    },
    url,
  };
}

const openapiPlugin: FastifyPluginAsync<{ serverUrl: string }> = async (app, { serverUrl }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Payments and Recurring Billing API',
        version: CURRENT_API_VERSION,
        description:
          'USDC payments and recurring billing. Authenticate with `Authorization: Bearer <key>`; the key prefix ' +
          '(`sk_test_`, `sk_live_`, `pk_test_`, `pk_live_`) selects test or live mode. Choose a dated version with ' +
          `the \`Service-Version\` header (current \`${CURRENT_API_VERSION}\`).`,
      },
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'A secret or publishable API key.' },
          dashboardSession: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A dashboard access token.' },
        },
      },
    },
    transform: transform as unknown as typeof jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/openapi.json' } as never });

  app.get('/openapi.json', { schema: { hide: true }, config: { access: { kind: 'public' } } }, async () => app.swagger());
};

export default fp(openapiPlugin, { name: 'openapi' });
