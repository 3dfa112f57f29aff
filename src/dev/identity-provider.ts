// A small OIDC identity provider for development and tests: its own ES256
// key pair (jose), the discovery document and JWKS on a loopback port, and a
// way to mint access tokens for any user id, so dashboard sessions work offline.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { setIdpSubject } from '../merchants/repo.js';
import { freePort } from './ports.js';

export type MintOptions = {
  email?: string;
  name?: string;
  /** Seconds until expiry (default one hour). */
  expiresInSeconds?: number;
  /** Overrides for negative tests. */
  issuer?: string;
  audience?: string;
  notBefore?: number;
  issuedAt?: number;
};

export type DevIdentityProvider = {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** An access token for the user `subject`, signed with the provider's current key. */
  mintToken(subject: string, options?: MintOptions): Promise<string>;
  /** Signs with a new key from now on; the JWKS publishes the new and the previous key (rotation overlap). */
  rotateKey(): Promise<void>;
  stop(): Promise<void>;
};

/** What `npm start` writes into .data/dev.json. */
export type DevIdentityProviderInfo = { issuer: string; audience: string; jwksUrl: string };

const ALG = 'ES256';

async function newSigningKey(): Promise<{ kid: string; privateKey: CryptoKey; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' } };
}

export async function startDevIdentityProvider(options: { port?: number; audience?: string } = {}): Promise<DevIdentityProvider> {
  const port = options.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const audience = options.audience ?? 'stablepay-api';
  const jwksUrl = `${issuer}/.well-known/jwks.json`;
  let key = await newSigningKey();
  let previous: JWK | undefined;

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
      response.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      return send({
        issuer,
        jwks_uri: jwksUrl,
        id_token_signing_alg_values_supported: [ALG],
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
      });
    }
    if (path === '/.well-known/jwks.json') return send({ keys: previous ? [key.publicJwk, previous] : [key.publicJwk] });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));

  return {
    issuer,
    audience,
    jwksUrl,
    async mintToken(subject, mint = {}) {
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {};
      if (mint.email) claims.email = mint.email;
      if (mint.name) claims.name = mint.name;
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
        .setSubject(subject)
        .setIssuer(mint.issuer ?? issuer)
        .setAudience(mint.audience ?? audience)
        .setIssuedAt(mint.issuedAt ?? now)
        .setExpirationTime((mint.issuedAt ?? now) + (mint.expiresInSeconds ?? 3600));
      if (mint.notBefore !== undefined) jwt = jwt.setNotBefore(mint.notBefore);
      return jwt.sign(key.privateKey);
    },
    async rotateKey() {
      previous = key.publicJwk;
      key = await newSigningKey();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const DEMO_DASHBOARD_SUBJECT = 'dev|demo-merchant-owner';

/**
 * For `npm start`: binds the seeded demo merchant to a dev identity-provider
 * user and mints a long-lived dashboard token for it (goes into dev.json).
 */
export async function demoDashboardSession(
  db: Db,
  idp: DevIdentityProvider,
  merchantId: string,
): Promise<{ dashboardToken: string; subject: string }> {
  await setIdpSubject(db, merchantId, DEMO_DASHBOARD_SUBJECT);
  const dashboardToken = await idp.mintToken(DEMO_DASHBOARD_SUBJECT, {
    email: 'owner@demo.example',
    name: 'Demo merchant',
    expiresInSeconds: 30 * 24 * 3600,
  });
  return { dashboardToken, subject: DEMO_DASHBOARD_SUBJECT };
}
