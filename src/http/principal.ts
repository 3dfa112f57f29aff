// Who is calling: resolved once per request by src/plugins/auth.ts.
import type { FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../api-keys/service.js';
import { AuthenticationError } from '../errors.js';

export type Principal = KeyPrincipal;

/** The merchant and mode every object of a request is scoped to. */
export type MerchantScope = { merchantId: string; livemode: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    apiVersion: string;
  }
}

export function requestScope(request: FastifyRequest): MerchantScope {
  const principal = request.principal;
  if (!principal) throw new AuthenticationError();
  return { merchantId: principal.merchantId, livemode: principal.livemode };
}
