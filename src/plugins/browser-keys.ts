// Publishable keys are browser keys (spec, API keys). This plugin is CORS for
// them, and only for them:
// - Preflights (OPTIONS) are answered for the routes declared
//   `access.scope(scope, { publishableKey: true })`. A preflight carries no key,
//   so it cannot see the merchant: it echoes the Origin and lists the methods,
//   and the actual request decides. Any other route has no OPTIONS route (404),
//   so a browser never sends a secret key or a dashboard token cross-origin.
// - A request authenticated with a publishable key that carries `Origin` must
//   come from one of the merchant's allowed origins (`*` = any), else it is
//   refused with permission_denied before the handler runs (no side effect).
// - Responses to publishable-key requests with `Origin` on those routes carry
//   the CORS headers, refusals included (so the page can read the reason).
//   Secret keys and dashboard sessions never get them.
// @fastify/cors decides per route and origin before authentication; this rule
// needs the authenticated key, and its `OPTIONS *` route would need an access
// declaration anyway, so a small plugin is simpler.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { publishableKeyMayCall } from '../api-keys/scopes.js';
import { NotFoundError, PermissionDeniedError } from '../errors.js';
import { access, allowsPublishableKeys } from '../http/access.js';

/** Request headers a browser may send on the publishable-key routes. */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, Service-Version';
/** Response headers a page may read. */
export const CORS_EXPOSED_HEADERS = 'Request-Id, Service-Version, Idempotent-Replayed, Retry-After';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

type BrowserRoute = { method: string; pattern: RegExp };

/** `/v1/payment-sessions/:id` -> a pattern matching a request path of that route. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** True when a page on `origin` may use a publishable key of a merchant allowing `allowed`. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.includes('*') || allowed.includes(origin);
}

function addVaryOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const values =
    typeof vary === 'string'
      ? vary
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)
      : [];
  if (!values.includes('Origin')) reply.header('vary', [...values, 'Origin'].join(', '));
}

/** A cross-origin request with a publishable key (valid or not) to a route publishable keys may call. */
function isBrowserKeyRequest(request: FastifyRequest): request is FastifyRequest & { headers: { origin: string } } {
  return (
    typeof request.headers.origin === 'string' &&
    allowsPublishableKeys(request.routeOptions.config?.access) &&
    /^Bearer +pk_\S+ *$/i.test(request.headers.authorization ?? '')
  );
}

const browserKeysPlugin: FastifyPluginAsync = async (app) => {
  const routes: BrowserRoute[] = [];

  app.addHook('onRoute', (route) => {
    if (!allowsPublishableKeys(route.config?.access)) return;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (!publishableKeyMayCall(method, route.url)) {
        throw new Error(`Route ${method} ${route.url} is open to publishable keys, which may only read and create payment sessions`);
      }
      routes.push({ method, pattern: routePattern(route.url) });
    }
  });

  app.route({
    method: 'OPTIONS',
    url: '/*',
    config: { access: access.public() },
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const methods = [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
      if (methods.length === 0) throw new NotFoundError(`No route OPTIONS ${path}.`);
      reply
        .header('access-control-allow-origin', request.headers.origin ?? '*')
        .header('access-control-allow-methods', methods.join(', '))
        .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
      addVaryOrigin(reply);
      return reply.code(204).send();
    },
  });

  app.addHook('onRequest', async (request) => {
    const origin = request.headers.origin;
    const principal = request.principal;
    if (origin === undefined || principal?.type !== 'api_key' || principal.kind !== 'publishable') return;
    if (!originAllowed(origin, principal.allowedOrigins)) {
      throw new PermissionDeniedError(
        `Publishable keys of this merchant may not be used from the origin ${origin}; add it with PUT /v1/merchants/me/allowed-origins.`,
        { param: 'Origin' },
      );
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!isBrowserKeyRequest(request)) return payload;
    reply.header('access-control-allow-origin', request.headers.origin).header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    addVaryOrigin(reply);
    return payload;
  });
};

/** Register after the auth plugin and before any route. */
export default fp(browserKeysPlugin, { name: 'browser-keys', dependencies: ['auth'] });
