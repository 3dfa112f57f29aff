// Who may call a route. Every route declares exactly one access rule in its
// `config.access`; src/plugins/auth.ts enforces it and the OpenAPI document
// shows it. A route under /v1 without one fails at registration.
import type { Scope } from '../api-keys/scopes.js';

export type Access =
  | { kind: 'public' }
  | { kind: 'scope'; scope: Scope; secretKeyOnly?: true }
  | { kind: 'dashboard' }
  | { kind: 'dashboard_identity' };

export const access = {
  /** No credentials (public token, checkout and store reads). */
  public: (): Access => ({ kind: 'public' }),
  /** An API key (or dashboard session) holding `scope`. */
  scope: (scope: Scope): Access => ({ kind: 'scope', scope }),
  /** A secret API key holding `scope`: no publishable key, no dashboard session (the relay namespace). */
  secretKey: (scope: Scope): Access => ({ kind: 'scope', scope, secretKeyOnly: true }),
  /** Only a dashboard session (key management, account settings). */
  dashboard: (): Access => ({ kind: 'dashboard' }),
  /** A valid dashboard token whose merchant may not exist yet (only POST /v1/auth/sync). */
  dashboardIdentity: (): Access => ({ kind: 'dashboard_identity' }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}
