// Verifies dashboard access tokens (OIDC, JWT) against the identity
// provider's JWKS. jose's remote key set caches the keys and refetches them
// (rate-limited) when a token names an unknown `kid`, which handles key
// rotation. Only asymmetric algorithms are accepted (never `none`, never HS*).
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { AuthenticationError, InternalError } from '../errors.js';

export const DASHBOARD_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];
/** Clock skew tolerated on exp/nbf/iat between us and the identity provider. */
export const CLOCK_TOLERANCE_SECONDS = 30;

export type DashboardIdentity = { subject: string; email: string | null; name: string | null };

export type DashboardTokenVerifier = { verify(token: string): Promise<DashboardIdentity> };

function claimString(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function createDashboardTokenVerifier(oidc: {
  issuer: string;
  audience: string;
  jwksUrl: string;
  jwksCooldownMs?: number;
}): DashboardTokenVerifier {
  const jwks = createRemoteJWKSet(new URL(oidc.jwksUrl), {
    timeoutDuration: 5_000,
    cooldownDuration: oidc.jwksCooldownMs ?? 30_000,
    cacheMaxAge: 10 * 60_000,
  });
  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: oidc.issuer,
          audience: oidc.audience,
          algorithms: DASHBOARD_TOKEN_ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'exp'],
        }));
      } catch (error) {
        // The identity provider being unreachable is our failure, not the caller's.
        if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
          throw new InternalError('The identity provider could not be reached; retry later.');
        }
        if (error instanceof errors.JOSEError) {
          throw new AuthenticationError('Invalid or expired dashboard token.');
        }
        throw error;
      }
      const subject = claimString(payload, 'sub');
      if (!subject) throw new AuthenticationError('Invalid or expired dashboard token.');
      return { subject, email: claimString(payload, 'email'), name: claimString(payload, 'name') };
    },
  };
}

/** A verifier for deployments without an identity provider: every dashboard token is refused. */
export const refuseDashboardTokens: DashboardTokenVerifier = {
  async verify() {
    throw new AuthenticationError('Dashboard sessions are not configured on this server.');
  },
};
