// The dev identity provider's authorization-code flow with PKCE, as the
// dashboard uses it: discovery, the login form, redirect-URI checks, and the
// token endpoint's single-use codes and verifier check. The issued token is
// accepted by the API's own dashboard-token verifier.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardTokenVerifier } from '../../src/dashboard-sessions/verifier.js';
import { devSubjectForEmail, startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';

const CLIENT = 'stablepay-dashboard';
const REDIRECT = 'http://127.0.0.1:9/dashboard/callback';
let idp: DevIdentityProvider;

beforeAll(async () => {
  idp = await startDevIdentityProvider();
  idp.registerClient(CLIENT, [REDIRECT]);
  idp.addUser({ subject: 'dev|owner', email: 'owner@shop.example', name: 'Owner' });
});
afterAll(() => idp?.stop());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeParams(challenge: string, overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT,
    redirect_uri: REDIRECT,
    state: 'st4te',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  });
}

/** Signs in on the form as `email`; returns the code from the redirect. */
async function code(challenge: string, email: string): Promise<string> {
  const form = authorizeParams(challenge);
  form.set('email', email);
  const response = await fetch(`${idp.issuer}/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe('st4te');
  return location.searchParams.get('code')!;
}

const exchange = (values: Record<string, string>) =>
  fetch(`${idp.issuer}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: CLIENT, redirect_uri: REDIRECT, ...values }),
  });

describe('dev identity provider: authorization code + PKCE', () => {
  it('publishes the authorization and token endpoints, readable from another origin', async () => {
    const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      authorization_endpoint: `${idp.issuer}/authorize`,
      token_endpoint: `${idp.issuer}/token`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('shows the login form prefilled with the first known user, and refuses unregistered clients and redirect URIs', async () => {
    const { challenge } = pkce();
    const page = await fetch(`${idp.issuer}/authorize?${authorizeParams(challenge)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('value="owner@shop.example"');
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    const bads: Record<string, string>[] = [
      { redirect_uri: 'https://evil.example/cb' },
      { client_id: 'other' },
      { code_challenge_method: 'plain' },
      { code_challenge: 'short' },
    ];
    for (const bad of bads) {
      const refused = await fetch(`${idp.issuer}/authorize?${authorizeParams(challenge, bad)}`, { redirect: 'manual' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
    }
  });

  it('exchanges a code once, only with the matching verifier, for a token the API accepts', async () => {
    const { verifier, challenge } = pkce();
    const first = await code(challenge, 'Owner@Shop.example');

    const wrong = await exchange({ code: first, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    // A failed exchange used the code up as well.
    expect((await exchange({ code: first, code_verifier: verifier })).status).toBe(400);

    const second = await code(challenge, 'owner@shop.example');
    expect((await exchange({ code: second, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9/other' })).status).toBe(400);
    const third = await code(challenge, 'owner@shop.example');
    const ok = await exchange({ code: third, code_verifier: verifier });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const verify = createDashboardTokenVerifier({ issuer: idp.issuer, audience: idp.audience, jwksUrl: idp.jwksUrl });
    expect(await verify.verify(body.access_token)).toEqual({ subject: 'dev|owner', email: 'owner@shop.example', name: 'Owner' });
    expect((await exchange({ code: third, code_verifier: verifier })).status).toBe(400);

    // An email nobody added signs in as a stable user of its own.
    const { verifier: v2, challenge: c2 } = pkce();
    const stranger = await exchange({ code: await code(c2, 'new@shop.example'), code_verifier: v2 });
    expect((await verify.verify((await stranger.json()).access_token)).subject).toBe(devSubjectForEmail('new@shop.example'));
  });
});
