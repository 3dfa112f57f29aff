// The OpenAPI 3.1 document at /openapi.json and the interactive UI at /docs,
// generated from the same zod schemas that validate requests and filter
// responses. Each operation shows its security and its required scope.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_CSS, DOCS_LOGO_SVG, DOCS_TITLE, quickstartHtml } from '../docs/quickstart.js';
import type { FastifyPluginAsync, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eventWebhooks } from '../events/webhook-docs.js';
import { errorEnvelope } from '../http/schemas.js';
import { CURRENT_API_VERSION } from '../http/versions.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Statuses a page route may answer as text/html besides JSON (documented with both content types). */
    htmlResponses?: readonly number[];
    /**
     * A route whose 200 is a file or a stream, not JSON (documented with that content type, e.g. application/pdf).
     * `schema` describes the body; for text/event-stream, one event (OpenAPI 3.1 reads it per event), default a binary string.
     */
    fileResponse?: { contentType: string; description: string; schema?: Record<string, unknown> };
  }
}

function describeAccess(route: RouteOptions): { security: Record<string, string[]>[]; note: string; scope?: string } {
  const access = route.config?.access;
  if (!access || access.kind === 'public') return { security: [], note: 'Public: no credentials.' };
  if (access.kind === 'dashboard') return { security: [{ dashboardSession: [] }], note: 'Dashboard session only.' };
  if (access.kind === 'dashboard_identity') {
    return { security: [{ dashboardSession: [] }], note: 'Dashboard session only; works before the merchant exists.' };
  }
  if (access.kind === 'merchant') {
    return {
      security: [{ dashboardSession: [] }, { apiKey: [] }],
      note: 'Dashboard session, or any secret API key of the merchant (no scope needed). Not publishable keys.',
    };
  }
  const keys = access.secretKeyOnly
    ? 'Secret API key only.'
    : access.publishableKey
      ? 'Publishable keys allowed (browser use, CORS: see PUT /v1/merchants/me/allowed-origins).'
      : 'Secret API key or dashboard session; not publishable keys.';
  return { security: [{ apiKey: [] }], note: `${keys} Required scope: \`${access.scope}\`.`, scope: access.scope };
}

const VERB_OF_METHOD: Record<string, string> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ss') || !word.endsWith('s')) return word;
  return word.slice(0, -1);
}

const pascal = (segment: string) =>
  segment
    .split(/[-_]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * The operationId of a route that declares none, from its method and path, so it is stable for as long as
 * the operation exists: `GET /v1/invoices` -> `listInvoices`, `GET /v1/invoices/:id` -> `getInvoice`,
 * `POST /v1/invoices` -> `createInvoice`, `POST /v1/invoices/:id/send` -> `sendInvoice`,
 * `POST /v1/webhook-endpoints/:id/rotate-secret` -> `rotateWebhookEndpointSecret`,
 * `GET /v1/relay/submissions/:idempotencyKey` -> `getRelaySubmissionByIdempotencyKey`. A collection
 * segment followed by a path parameter is singular. A route may declare `schema.operationId` instead.
 */
export function deriveOperationId(method: string, url: string, isList: boolean): string {
  const segments = url
    .replace(/^\/v1(?=\/)/, '')
    .split('/')
    .filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const action = method === 'POST' && segments.length >= 2 && segments[segments.length - 2]!.startsWith(':') && !last.startsWith(':');
  const resource = segments
    .slice(0, action ? -1 : undefined)
    .map((segment, i, all) => {
      if (segment.startsWith(':')) return '';
      const next = all[i + 1];
      const collectionMember = next?.startsWith(':') || (i === all.length - 1 && method === 'POST' && !action);
      return pascal(collectionMember ? singular(segment) : segment);
    })
    .join('');
  const byKey = last.startsWith(':') && last !== ':id' ? `By${pascal(last.slice(1))}` : '';
  // An action's first word is the verb, the rest names what it acts on: rotate-secret -> rotateWebhookEndpointSecret.
  const [actionVerb = '', ...actionObject] = action ? last.split('-') : [];
  const verb = action ? pascal(actionVerb) : method === 'GET' && isList ? 'List' : pascal(VERB_OF_METHOD[method] ?? method.toLowerCase());
  const name = `${verb}${resource}${pascal(actionObject.join('-'))}${byKey}`;
  return name[0]!.toLowerCase() + name.slice(1);
}

function isListResponse(response: unknown): boolean {
  const ok = (response as Record<string, unknown> | undefined)?.[200];
  return ok instanceof z.ZodObject && 'hasMore' in ok.shape;
}

function transform(input: TransformInput) {
  // The error envelope goes in as a zod schema like any other response, so the shared transform
  // turns it into a reference to components.schemas.Error.
  const withErrors =
    input.schema && !(input.schema as { hide?: boolean }).hide
      ? {
          ...input,
          schema: { ...input.schema, response: { ...((input.schema.response as object | undefined) ?? {}), default: errorEnvelope } },
        }
      : input;
  const { schema, url } = jsonSchemaTransform(withErrors);
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const { security, note, scope } = describeAccess(input.route);
  const method = String(input.route.method).toUpperCase();
  const described = schema as Record<string, unknown> & { response?: Record<string, unknown>; description?: string; operationId?: string };
  const operationId = described.operationId ?? deriveOperationId(method, input.route.url, isListResponse(input.schema.response));
  const headers =
    method === 'POST'
      ? {
          type: 'object',
          properties: {
            'Idempotency-Key': {
              type: 'string',
              maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
              pattern: IDEMPOTENCY_KEY_PATTERN,
              description: 'Makes a retried POST safe: the first response is replayed for 24 hours.',
            },
            ...((described.headers as { properties?: object } | undefined)?.properties ?? {}),
          },
          ...(input.route.config?.idempotencyKeyRequired ? { required: ['Idempotency-Key'] } : {}),
        }
      : described.headers;
  const htmlStatuses = input.route.config?.htmlResponses;
  if (htmlStatuses && described.response) {
    // A page route answers text/html to browsers and JSON to `Accept: application/json`: both are declared.
    const html = { schema: { type: 'string', description: 'The server-rendered HTML page.' } };
    const response: Record<string, unknown> = { ...described.response };
    for (const status of htmlStatuses) {
      const json = response[String(status)] ?? response.default;
      response[String(status)] = {
        description:
          status === 200
            ? 'The page (text/html) or its data (application/json).'
            : 'Not found: an HTML page, or the error envelope for JSON.',
        content: { 'application/json': { schema: json }, 'text/html': html },
      };
    }
    described.response = response;
  }
  const file = input.route.config?.fileResponse;
  if (file) {
    described.response = {
      ...(described.response ?? {}),
      200: {
        description: file.description,
        content: { [file.contentType]: { schema: file.schema ?? { type: 'string', format: 'binary' } } },
      },
    };
  }
  return {
    schema: {
      ...described,
      operationId,
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
          `the \`Service-Version\` header (current \`${CURRENT_API_VERSION}\`). New here? Start with the ` +
          '[quickstart](/docs/quickstart): a test key, a payment, a webhook and a plan in four runnable samples.',
      },
      servers: [{ url: serverUrl }],
      webhooks: eventWebhooks(),
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
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json' } as never,
    theme: { title: `${DOCS_TITLE} reference`, css: [{ filename: 'stablepay.css', content: DOCS_CSS }] },
    logo: { type: 'image/svg+xml', content: Buffer.from(DOCS_LOGO_SVG), href: '/docs/quickstart', target: '_self' },
  });
  app.get('/docs/quickstart', { schema: { hide: true }, config: { access: { kind: 'public' } } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(quickstartHtml()),
  );

  app.get('/openapi.json', { schema: { hide: true }, config: { access: { kind: 'public' } } }, async () => app.swagger());
};

export default fp(openapiPlugin, { name: 'openapi' });
