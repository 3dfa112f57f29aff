// Authenticates the bearer token and enforces the route's declared access
// before anything else runs (so an unauthenticated caller learns nothing from
// validation errors). A token shaped like an API key (`sk_...`, `pk_...`) is
// only ever checked as an API key; anything else is only ever verified as a
// dashboard JWT, so the two can never be confused.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { KeyAuthenticator } from '../api-keys/service.js';
import { MODE_HEADER, type DashboardSessions } from '../dashboard-sessions/service.js';
import { AuthenticationError, PermissionDeniedError } from '../errors.js';
import { allowsPublishableKeys, type Access } from '../http/access.js';
import type { Principal } from '../http/principal.js';

export type AuthOptions = { keys: KeyAuthenticator; sessions: DashboardSessions };

/** Extracts the token of `Authorization: Bearer <token>`; every other shape is an authentication error. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new AuthenticationError('Missing Authorization header.');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new AuthenticationError('Malformed Authorization header; expected "Bearer <token>".');
  return match[1]!;
}

/** True for anything in the API key namespace (valid or not): it is never treated as a JWT. */
export function looksLikeApiKey(token: string): boolean {
  return /^(sk|pk)_/.test(token);
}

function authorize(principal: Principal, route: Access): void {
  if (route.kind === 'dashboard' || route.kind === 'dashboard_identity') {
    if (principal.type !== 'dashboard') {
      throw new PermissionDeniedError('This endpoint needs a dashboard session, not an API key.');
    }
    return;
  }
  const publishable = principal.type === 'api_key' && principal.kind === 'publishable';
  if (route.kind === 'merchant') {
    if (publishable) throw new PermissionDeniedError('Publishable keys cannot read the merchant account; use a secret key.');
    return;
  }
  if (route.kind !== 'scope') return;
  if (route.secretKeyOnly && !(principal.type === 'api_key' && principal.kind === 'secret')) {
    throw new PermissionDeniedError('This endpoint needs a secret API key (sk_test_ or sk_live_), used from a server.');
  }
  if (publishable && !allowsPublishableKeys(route)) {
    throw new PermissionDeniedError(
      'Publishable keys may only create payment sessions and read single payment sessions they created and single plans; use a secret key.',
    );
  }
  if (!principal.scopes.has(route.scope)) {
    throw new PermissionDeniedError(`This API key lacks the scope ${route.scope}.`, {
      details: { requiredScope: route.scope },
    });
  }
}

const authPlugin: FastifyPluginAsync<AuthOptions> = async (app, { keys, sessions }) => {
  app.decorateRequest('principal', undefined);
  app.decorateRequest('dashboardIdentity', undefined);

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.config.access;
    // Unknown routes (404) and public routes need no credentials.
    if (!route || route.kind === 'public') return;
    const token = bearerToken(request.headers.authorization);
    if (looksLikeApiKey(token)) {
      const principal = await keys.authenticate(token);
      authorize(principal, route);
      request.principal = principal;
      return;
    }
    if (route.kind === 'dashboard_identity') {
      request.dashboardIdentity = await sessions.identify(token);
      return;
    }
    const { identity, principal } = await sessions.authenticate(token, request.headers[MODE_HEADER]);
    authorize(principal, route);
    request.dashboardIdentity = identity;
    request.principal = principal;
  });
};

export default fp(authPlugin, { name: 'auth' });
