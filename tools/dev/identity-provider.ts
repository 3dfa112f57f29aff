// A small OIDC identity provider for development and tests: its own ES256
// key pair (jose), the discovery document and JWKS on a loopback port, and a
// way to mint access tokens for any user id, so dashboard sessions work offline.
// The web dashboard logs in through it with the authorization-code flow and
// PKCE (S256): GET /authorize shows a login form (an email, no password: a dev
// provider), POST /authorize redirects back with a single-use code, and
// POST /token exchanges code + code_verifier for an access token.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DEMO_DASHBOARD_SUBJECT } from './seed.js';
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

/** A user of the login form: signing in with `email` yields tokens for `subject`. */
export type DevUser = { subject: string; email: string; name?: string };

export type DevIdentityProvider = {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** An access token for the user `subject`, signed with the provider's current key. */
  mintToken(subject: string, options?: MintOptions): Promise<string>;
  /** Makes `email` sign in as `user.subject` on the login form; the first user added prefills the form. */
  addUser(user: DevUser): void;
  /** Allows an OAuth client (no secret: PKCE) to receive codes at exactly these redirect URIs. */
  registerClient(clientId: string, redirectUris: readonly string[]): void;
  /** Signs with a new key from now on; the JWKS publishes the new and the previous key (rotation overlap). */
  rotateKey(): Promise<void>;
  stop(): Promise<void>;
};

/** What `npm start` writes into .data/dev.json. */
export type DevIdentityProviderInfo = { issuer: string; audience: string; jwksUrl: string };

const ALG = 'ES256';
/** Authorization codes are single-use and valid this long. */
const CODE_TTL_MS = 60_000;
/** Lifetime of tokens issued at the token endpoint. */
const LOGIN_TOKEN_SECONDS = 3600;
const MAX_FORM_BYTES = 16 * 1024;

type PendingCode = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  user: DevUser;
  expiresAt: number;
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Subject of an email nobody added: stable, so the same email signs in as the same user every time. */
export function devSubjectForEmail(email: string): string {
  return `dev|${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_FORM_BYTES) {
        reject(new Error('form too large'));
        request.destroy();
      }
    });
    request.on('end', () => resolve(new URLSearchParams(body)));
    request.on('error', reject);
  });
}

function loginPage(params: URLSearchParams, email: string, error?: string): string {
  const hidden = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope']
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name) ?? '')}">`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · dev identity provider</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f6fb;color:#1d2433;display:grid;place-items:center;min-height:100vh;margin:0;padding:16px;box-sizing:border-box}
main{background:#fff;border:1px solid #dde3ee;border-radius:12px;padding:28px;max-width:380px;width:100%;box-sizing:border-box}
h1{font-size:1.3rem;margin:0 0 4px}p{color:#5b6478;font-size:.9rem;margin:0 0 20px}
label{display:block;font-weight:600;margin-bottom:6px}input[type=email]{width:100%;box-sizing:border-box;font:inherit;padding:10px;border:1px solid #b9c2d3;border-radius:8px}
button{margin-top:16px;width:100%;font:inherit;font-weight:600;padding:10px;border:0;border-radius:8px;background:#2b59c3;color:#fff;cursor:pointer}
.error{color:#b42318;margin:0 0 12px}
</style></head><body><main>
<h1>Sign in to StablePay</h1>
<p>Development identity provider: enter an email to sign in as that user (no password).</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/authorize">${hidden}
<label for="email">Email</label>
<input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(email)}" autofocus>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

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
  const users = new Map<string, DevUser>();
  const clients = new Map<string, Set<string>>();
  const codes = new Map<string, PendingCode>();

  async function mintToken(subject: string, mint: MintOptions = {}): Promise<string> {
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
  }

  /** The authorization request's problem, or undefined when client, redirect URI and PKCE are acceptable. */
  function authorizationProblem(params: URLSearchParams): string | undefined {
    const allowed = clients.get(params.get('client_id') ?? '');
    if (!allowed) return 'unknown client_id';
    if (!allowed.has(params.get('redirect_uri') ?? '')) return 'redirect_uri is not registered for this client';
    if (params.get('response_type') !== 'code') return 'response_type must be code';
    if (params.get('code_challenge_method') !== 'S256') return 'code_challenge_method must be S256';
    if (!/^[A-Za-z0-9_-]{43,128}$/.test(params.get('code_challenge') ?? '')) return 'code_challenge is missing or malformed';
    return undefined;
  }

  const json = (response: ServerResponse, status: number, body: unknown, cache = 'no-store') => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'cache-control': cache,
      // The dashboard (another origin) reads discovery and calls the token endpoint from the browser.
      'access-control-allow-origin': '*',
    });
    response.end(JSON.stringify(body));
  };
  const html = (response: ServerResponse, status: number, body: string, redirectUri?: string) => {
    // form-action also governs the redirect after the POST: the client's registered redirect URI.
    const formAction = redirectUri ? `'self' ${new URL(redirectUri).origin}` : "'self'";
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'`,
      'referrer-policy': 'no-referrer',
    });
    response.end(body);
  };

  async function authorize(request: IncomingMessage, response: ServerResponse, query: URLSearchParams): Promise<void> {
    if (request.method === 'GET') {
      const problem = authorizationProblem(query);
      // Never redirect to an unchecked URI: the error is shown here instead.
      if (problem)
        return html(response, 400, `<!doctype html><title>Sign-in error</title><p>Invalid sign-in request: ${escapeHtml(problem)}.</p>`);
      const first = users.values().next().value as DevUser | undefined;
      return html(response, 200, loginPage(query, query.get('login_hint') ?? first?.email ?? ''), query.get('redirect_uri')!);
    }
    const form = await readForm(request);
    const problem = authorizationProblem(form);
    if (problem)
      return html(response, 400, `<!doctype html><title>Sign-in error</title><p>Invalid sign-in request: ${escapeHtml(problem)}.</p>`);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(email))
      return html(response, 400, loginPage(form, email, 'Enter an email address.'), form.get('redirect_uri')!);
    const user = users.get(email) ?? { subject: devSubjectForEmail(email), email };
    const code = randomBytes(32).toString('base64url');
    codes.set(code, {
      clientId: form.get('client_id')!,
      redirectUri: form.get('redirect_uri')!,
      codeChallenge: form.get('code_challenge')!,
      user,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const target = new URL(form.get('redirect_uri')!);
    target.searchParams.set('code', code);
    const state = form.get('state');
    if (state) target.searchParams.set('state', state);
    response.writeHead(303, { location: target.toString(), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    response.end();
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const invalid = (description: string) => json(response, 400, { error: 'invalid_grant', error_description: description });
    if (form.get('grant_type') !== 'authorization_code') {
      return json(response, 400, { error: 'unsupported_grant_type', error_description: 'only authorization_code' });
    }
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code); // single use, whatever the outcome
    if (!pending || pending.expiresAt < Date.now()) return invalid('the code is unknown, used or expired');
    if (pending.clientId !== form.get('client_id')) return invalid('client_id does not match the code');
    if (pending.redirectUri !== form.get('redirect_uri')) return invalid('redirect_uri does not match the code');
    const challenge = createHash('sha256')
      .update(form.get('code_verifier') ?? '')
      .digest('base64url');
    const expected = Buffer.from(pending.codeChallenge);
    if (challenge.length !== expected.length || !timingSafeEqual(Buffer.from(challenge), expected)) {
      return invalid('code_verifier does not match the code_challenge');
    }
    const accessToken = await mintToken(pending.user.subject, {
      email: pending.user.email,
      name: pending.user.name,
      expiresInSeconds: LOGIN_TOKEN_SECONDS,
    });
    return json(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: LOGIN_TOKEN_SECONDS });
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const path = url.pathname;
    const send = (body: unknown) => json(response, 200, body, 'max-age=60');
    if (path === '/.well-known/openid-configuration') {
      return send({
        issuer,
        jwks_uri: jwksUrl,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        id_token_signing_alg_values_supported: [ALG],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        subject_types_supported: ['public'],
      });
    }
    if (path === '/.well-known/jwks.json') return send({ keys: previous ? [key.publicJwk, previous] : [key.publicJwk] });
    const fail = (error: unknown) => {
      if (!response.headersSent) json(response, 400, { error: 'invalid_request', error_description: String(error) });
      else response.end();
    };
    if (path === '/authorize' && (request.method === 'GET' || request.method === 'POST')) {
      return void authorize(request, response, url.searchParams).catch(fail);
    }
    if (path === '/token' && request.method === 'POST') return void token(request, response).catch(fail);
    if (path === '/token' && request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
      });
      return void response.end();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  // Expired codes are dropped now and then (a dev provider holds a handful).
  const sweep = setInterval(() => {
    for (const [code, pending] of codes) if (pending.expiresAt < Date.now()) codes.delete(code);
  }, CODE_TTL_MS);
  sweep.unref();

  return {
    issuer,
    audience,
    jwksUrl,
    mintToken,
    addUser(user) {
      users.set(user.email.trim().toLowerCase(), user);
    },
    registerClient(clientId, redirectUris) {
      const allowed = clients.get(clientId) ?? new Set<string>();
      for (const uri of redirectUris) allowed.add(uri);
      clients.set(clientId, allowed);
    },
    async rotateKey() {
      previous = key.publicJwk;
      key = await newSigningKey();
    },
    async stop() {
      clearInterval(sweep);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const DEMO_OWNER_EMAIL = 'owner@demo.example';

/**
 * For `npm start`: makes the owner of the seeded demo merchant (bound to it by
 * its subject, tools/dev/seed.ts) a dev identity-provider user and mints a
 * long-lived dashboard token for it (goes into dev.json).
 */
export async function demoDashboardSession(idp: DevIdentityProvider): Promise<{ dashboardToken: string; subject: string }> {
  // The dashboard's login form signs the demo owner in as the same user (and prefills the email).
  idp.addUser({ subject: DEMO_DASHBOARD_SUBJECT, email: DEMO_OWNER_EMAIL, name: 'Demo merchant' });
  const dashboardToken = await idp.mintToken(DEMO_DASHBOARD_SUBJECT, {
    email: DEMO_OWNER_EMAIL,
    name: 'Demo merchant',
    expiresInSeconds: 30 * 24 * 3600,
  });
  return { dashboardToken, subject: DEMO_DASHBOARD_SUBJECT };
}
