// Serves the hosted pages' built scripts (checkout, store, customer portal) at their fixed URLs.
// Vite builds them from web/ into <dashboard dist>/hosted/ (src/dashboard/build.ts,
// run by `npm start`, the test setup and the Dockerfile); the api only reads the
// output. The names are fixed, not hashed, so the pages' URLs never change: the
// short max-age keeps a deploy's new script reaching browsers within minutes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_DASHBOARD_DIST_DIR } from '../dashboard/serve.js';
import { access } from '../http/access.js';
import type { FastifyZodInstance } from '../http/types.js';

export const HOSTED_SCRIPTS_DIR = 'hosted';

/** The built files, one per web/ entry (web/checkout/main.ts, web/storefront/main.ts, web/portal/main.ts). */
export type HostedScriptName = 'checkout.js' | 'store.js' | 'portal.js';

export type HostedScriptRoute = {
  url: string;
  name: HostedScriptName;
  headers: Record<string, string>;
  tag: string;
  summary: string;
  /** The dashboard's dist folder (config.dashboard.distDir); the repository's dashboard/dist when unset. */
  distDir?: string | undefined;
};

export function hostedScriptFile(name: HostedScriptName, distDir?: string): string {
  return join(distDir ?? DEFAULT_DASHBOARD_DIST_DIR, HOSTED_SCRIPTS_DIR, name);
}

export function registerHostedScriptRoute(app: FastifyZodInstance, route: HostedScriptRoute): void {
  const file = hostedScriptFile(route.name, route.distDir);
  app.route({
    method: 'GET',
    url: route.url,
    config: { access: access.public() },
    schema: { hide: true, tags: [route.tag], summary: route.summary },
    handler: async (_request, reply) => {
      let script: string;
      try {
        script = await readFile(file, 'utf8');
      } catch {
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send('The hosted page scripts are not built. `npm start` builds them (src/dashboard/build.ts).');
      }
      return reply
        .headers(route.headers)
        .header('cache-control', 'public, max-age=300')
        .type('text/javascript; charset=utf-8')
        .send(script);
    },
  });
}
