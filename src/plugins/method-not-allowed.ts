// Which methods a path answers: a request with another method on a path that
// exists gets 405 with an `Allow` header (RFC 9110, 15.5.6), not 404 or 400.
// Paths are matched against the registered route patterns, so `/v1/invoices/inv_x`
// matches `/v1/invoices/:id` whatever the id.

export type RouteMethods = {
  /** Records a registered route (every method it answers). */
  add: (methods: string | string[], url: string) => void;
  /** The methods that answer `path`, sorted; empty when no route matches it. */
  allowedFor: (path: string) => string[];
};

function patternOf(url: string): RegExp {
  const trimmed = url.length > 1 ? url.replace(/\/+$/, '') : url;
  const source = trimmed
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  // The router ignores a trailing slash (app.ts, routerOptions).
  return new RegExp(`^${source}/?$`);
}

export function createRouteMethods(): RouteMethods {
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  return {
    add(methods, url) {
      // The CORS preflight answers OPTIONS on every path (src/plugins/browser-keys.ts): not a resource of its own.
      if (url === '/*') return;
      routes.push({ pattern: patternOf(url), methods: (Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase()) });
    },
    allowedFor(path) {
      const allowed = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
      return [...allowed].sort();
    },
  };
}
