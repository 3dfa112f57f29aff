// Who may call a route. Every route declares exactly one access rule in its
// `config.access`; src/plugins/auth.ts enforces it and the OpenAPI document
// shows it. A route under /v1 without one fails at registration.
import type { Scope } from '../api-keys/scopes.js';

export type Access =
  | { kind: 'public' }
  | { kind: 'scope'; scope: Scope; secretKeyOnly?: true; publishableKey?: true }
  | { kind: 'merchant' }
  | { kind: 'dashboard' }
  | { kind: 'dashboard_identity' };

export type ScopeOptions = {
  /**
   * Publishable keys may call the route too (browser routes: CORS applies, src/plugins/browser-keys.ts).
   * Only for the create-session endpoint and single-object reads; never for a list.
   */
  publishableKey?: true;
};

export const access = {
  /** No credentials (public token, checkout and store reads). */
  public: (): Access => ({ kind: 'public' }),
  /** A secret API key or a dashboard session holding `scope`; a publishable key only when the options say so. */
  scope: (scope: Scope, options: ScopeOptions = {}): Access => ({ kind: 'scope', scope, ...options }),
  /** A secret API key holding `scope`: no publishable key, no dashboard session (the relay namespace). */
  secretKey: (scope: Scope): Access => ({ kind: 'scope', scope, secretKeyOnly: true }),
  /** The merchant's own account: any secret key of the merchant (no scope needed) or a dashboard session. */
  merchant: (): Access => ({ kind: 'merchant' }),
  /** Only a dashboard session (key management, account settings). */
  dashboard: (): Access => ({ kind: 'dashboard' }),
  /** A valid dashboard token whose merchant may not exist yet (only POST /v1/auth/sync). */
  dashboardIdentity: (): Access => ({ kind: 'dashboard_identity' }),
};

/** True when publishable keys may call a route declared with `access` (the browser routes). */
export function allowsPublishableKeys(access: Access | undefined): boolean {
  return access?.kind === 'scope' && access.publishableKey === true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}
