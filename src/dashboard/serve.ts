// Serves the built web dashboard (dashboard/dist, see src/dashboard/build.ts)
// at /dashboard: hashed assets under /dashboard/assets/ cached for a year,
// index.html (no-cache) for every other path under /dashboard so the SPA's
// own routes load on refresh, and /dashboard/config.json with the identity
// provider settings the SPA logs in with. `/` redirects to the dashboard.
// A few lines of node:fs instead of @fastify/static: two kinds of file, no ranges.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { access } from '../http/access.js';
import type { FastifyZodInstance } from '../http/types.js';

export const DEFAULT_DASHBOARD_DIST_DIR = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));

/** Vite's content-hashed asset names (`index-3f9a1c2b.js`) and nothing else: no path traversal. */
const ASSET_NAME = /^[A-Za-z0-9._-]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/** What the SPA needs to log in (GET /dashboard/config.json). */
export type DashboardClientConfig = {
  /** The OIDC issuer (discovery at `<issuer>/.well-known/openid-configuration`); null when none is configured. */
  issuer: string | null;
  clientId: string;
  /** Sent as `audience` on the authorization request (providers that issue API-specific tokens need it). */
  audience: string | null;
};

function securityHeaders(issuer: string | null): Record<string, string> {
  const idp = issuer ? ` ${new URL(issuer).origin}` : '';
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Recharts positions its tooltips with style attributes.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src 'self'${idp}`,
      "base-uri 'none'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      `form-action 'self'${idp}`,
    ].join('; '),
    'x-content-type-options': 'nosniff',
    // The login callback URL carries the authorization code: never send it to another site.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

export function registerDashboardRoutes(app: FastifyZodInstance, config: Pick<Config, 'oidc' | 'dashboard'>): void {
  const distDir = config.dashboard.distDir ?? DEFAULT_DASHBOARD_DIST_DIR;
  const clientConfig: DashboardClientConfig = {
    issuer: config.oidc?.issuer ?? null,
    clientId: config.dashboard.clientId,
    audience: config.oidc?.audience ?? null,
  };
  const headers = securityHeaders(clientConfig.issuer);
  const hidden = { hide: true, tags: ['Dashboard'] };

  app.route({
    method: 'GET',
    url: '/',
    config: { access: access.public() },
    schema: { ...hidden, summary: 'Redirects to the dashboard' },
    handler: (_request, reply) => reply.redirect('/dashboard', 302),
  });

  app.route({
    method: 'GET',
    url: '/dashboard/config.json',
    config: { access: access.public() },
    schema: { ...hidden, summary: "The dashboard's identity-provider settings" },
    handler: (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(JSON.stringify(clientConfig)),
  });

  const sendIndex = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    let html: string;
    try {
      html = await readFile(join(distDir, 'index.html'), 'utf8');
    } catch {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. `npm start` builds it (src/dashboard/build.ts).');
    }
    return reply.headers(headers).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  app.route({
    method: 'GET',
    url: '/dashboard',
    config: { access: access.public() },
    schema: { ...hidden, summary: 'The dashboard' },
    handler: sendIndex,
  });

  app.route({
    method: 'GET',
    url: '/dashboard/assets/:name',
    config: { access: access.public() },
    schema: { ...hidden, summary: 'A content-hashed dashboard asset' },
    handler: async (request, reply) => {
      const { name } = request.params as { name: string };
      const extension = name.slice(name.lastIndexOf('.'));
      const file = join(distDir, 'assets', name);
      const found = ASSET_NAME.test(name) && !name.startsWith('.') ? await stat(file).catch(() => null) : null;
      if (!found?.isFile()) {
        return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
      }
      return reply
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .header('content-length', found.size)
        .type(CONTENT_TYPES[extension] ?? 'application/octet-stream')
        .send(createReadStream(file));
    },
  });

  // Every other path is a route of the SPA: index.html, which loads the hashed assets.
  app.route({
    method: 'GET',
    url: '/dashboard/*',
    config: { access: access.public() },
    schema: { ...hidden, summary: 'A dashboard page' },
    handler: sendIndex,
  });
}
