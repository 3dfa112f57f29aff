// Authenticates the bearer token and enforces the route's declared access
// before anything else runs (so an unauthenticated caller learns nothing from
// validation errors).
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { publishableKeyMayCall } from '../api-keys/scopes.js';
import type { KeyAuthenticator } from '../api-keys/service.js';
import { AuthenticationError, PermissionDeniedError } from '../errors.js';
import type { Access } from '../http/access.js';
import type { Principal } from '../http/principal.js';

export type AuthOptions = { keys: KeyAuthenticator };

/** Extracts the token of `Authorization: Bearer <token>`; every other shape is an authentication error. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new AuthenticationError('Missing Authorization header.');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new AuthenticationError('Malformed Authorization header; expected "Bearer <token>".');
  return match[1]!;
}

function authorize(principal: Principal, route: Access, request: FastifyRequest): void {
  if (route.kind === 'dashboard') {
    throw new PermissionDeniedError('This endpoint needs a dashboard session, not an API key.');
  }
  if (route.kind !== 'scope') return;
  if (principal.kind === 'publishable') {
    const url = request.routeOptions.url ?? '';
    if (!publishableKeyMayCall(request.method, url)) {
      throw new PermissionDeniedError('Publishable keys may only read and create payment sessions; use a secret key.');
    }
  }
  if (!principal.scopes.has(route.scope)) {
    throw new PermissionDeniedError(`This API key lacks the scope ${route.scope}.`, {
      details: { requiredScope: route.scope },
    });
  }
}

const authPlugin: FastifyPluginAsync<AuthOptions> = async (app, { keys }) => {
  app.decorateRequest('principal', undefined);

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.config.access;
    // Unknown routes (404) and public routes need no credentials.
    if (!route || route.kind === 'public') return;
    const token = bearerToken(request.headers.authorization);
    const principal = await keys.authenticate(token);
    authorize(principal, route, request);
    request.principal = principal;
  });
};

export default fp(authPlugin, { name: 'auth' });
