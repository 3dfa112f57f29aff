// Login through the identity provider: OpenID discovery, then the
// authorization-code flow with PKCE (S256). The access token lives in
// sessionStorage (gone when the tab closes) and is sent as the bearer token to
// this host's API only.

export type DashboardConfig = { issuer: string | null; clientId: string; audience: string | null };
type Discovery = { authorization_endpoint: string; token_endpoint: string };
type Session = { accessToken: string; expiresAt: number };

const SESSION_KEY = 'stablepay.session';
const PENDING_KEY = 'stablepay.login';
export const CALLBACK_PATH = '/dashboard/callback';

let configPromise: Promise<DashboardConfig> | undefined;

export function loadConfig(): Promise<DashboardConfig> {
  configPromise ??= fetch('/dashboard/config.json').then((r) => {
    if (!r.ok) throw new Error(`The dashboard configuration could not be loaded (HTTP ${r.status}).`);
    return r.json() as Promise<DashboardConfig>;
  });
  return configPromise;
}

async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`The identity provider's discovery document could not be loaded (HTTP ${response.status}).`);
  const document = (await response.json()) as Partial<Discovery>;
  if (!document.authorization_endpoint || !document.token_endpoint) {
    throw new Error('The identity provider does not offer the authorization-code flow (no authorization or token endpoint).');
  }
  return document as Discovery;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

function redirectUri(): string {
  return `${location.origin}${CALLBACK_PATH}`;
}

/** Sends the browser to the identity provider's login page. */
export async function startLogin(returnTo = location.pathname + location.search): Promise<void> {
  const config = await loadConfig();
  if (!config.issuer) throw new Error('No identity provider is configured on this server (OIDC_ISSUER).');
  const discovery = await discover(config.issuer);
  const verifier = randomString();
  const state = randomString();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(
    PENDING_KEY,
    JSON.stringify({ verifier, state, returnTo: returnTo.startsWith(CALLBACK_PATH) ? '/dashboard' : returnTo }),
  );
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid email profile',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(config.audience ? { audience: config.audience } : {}),
  }).toString();
  location.assign(url.toString());
}

/** On /dashboard/callback: exchanges the code for a token; returns where to go next. */
export async function finishLogin(): Promise<string> {
  const params = new URLSearchParams(location.search);
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string; returnTo: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (params.get('error'))
    throw new Error(`The identity provider refused the login: ${params.get('error_description') ?? params.get('error')}`);
  if (!pending || params.get('state') !== pending.state)
    throw new Error('This login response does not match a login started here; sign in again.');
  const config = await loadConfig();
  const discovery = await discover(config.issuer!);
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: redirectUri(),
      client_id: config.clientId,
      code_verifier: pending.verifier,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    error_description?: string;
    error?: string;
  };
  if (!response.ok || !body.access_token)
    throw new Error(`The token exchange failed: ${body.error_description ?? body.error ?? `HTTP ${response.status}`}`);
  const session: Session = { accessToken: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  return pending.returnTo || '/dashboard';
}

/** The current access token, or undefined when signed out or expired. */
export function accessToken(): string | undefined {
  const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
  if (!session || session.expiresAt < Date.now() + 5_000) return undefined;
  return session.accessToken;
}

export function signOut(): void {
  sessionStorage.removeItem(SESSION_KEY);
}
