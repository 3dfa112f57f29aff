// Who is calling: resolved once per request by src/plugins/auth.ts.
import type { FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../api-keys/service.js';
import type { DashboardPrincipal } from '../dashboard-sessions/service.js';
import type { DashboardIdentity } from '../dashboard-sessions/verifier.js';
import { AuthenticationError } from '../errors.js';

/**
 * An API key or a dashboard session. Both carry `merchantId`, `livemode`,
 * `scopes` and `pinnedApiVersion`, so resource code never needs to know which.
 */
export type Principal = KeyPrincipal | DashboardPrincipal;

/** The merchant and mode every object of a request is scoped to. */
export type MerchantScope = { merchantId: string; livemode: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The verified dashboard user, on dashboard-session requests. */
    dashboardIdentity?: DashboardIdentity;
    apiVersion: string;
  }
}

export function requestScope(request: FastifyRequest): MerchantScope {
  const principal = request.principal;
  if (!principal) throw new AuthenticationError();
  return { merchantId: principal.merchantId, livemode: principal.livemode };
}

/** The API key of the request, if it was made with one (recorded on what it creates). */
export function requestApiKeyId(request: FastifyRequest): string | undefined {
  return request.principal?.type === 'api_key' ? request.principal.keyId : undefined;
}

/**
 * The publishable key of the request, if it was made with one. A publishable key is public, so on the
 * routes open to it it sees only the objects it created itself (docs/decisions.md, Publishable keys).
 */
export function publishableKeyId(request: FastifyRequest): string | undefined {
  const principal = request.principal;
  return principal?.type === 'api_key' && principal.kind === 'publishable' ? principal.keyId : undefined;
}

/** The merchant of a dashboard-session request (routes declared `access.dashboard()`). */
export function dashboardMerchantId(request: FastifyRequest): string {
  const principal = request.principal;
  if (!principal || principal.type !== 'dashboard') throw new AuthenticationError();
  return principal.merchantId;
}

/** The verified dashboard user (routes declared `access.dashboardIdentity()`). */
export function dashboardIdentity(request: FastifyRequest): DashboardIdentity {
  if (!request.dashboardIdentity) throw new AuthenticationError();
  return request.dashboardIdentity;
}

/** How the audit log names the dashboard user acting. */
export function dashboardActor(request: FastifyRequest): string {
  const principal = request.principal;
  if (!principal || principal.type !== 'dashboard') throw new AuthenticationError();
  return `dashboard:${principal.subject}`;
}
