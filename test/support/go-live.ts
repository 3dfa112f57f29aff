// A merchant's way to live mode, as the dashboard takes it: signed in through the dev identity
// provider, owner email verified with the code mailed to it, TOTP enabled, business profile (with
// the payout address) submitted; then a live secret key. Each step through the real api.
import { generate as totpCode } from 'otplib';
import { expect } from 'vitest';
import type { DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import type { SmtpSink } from '../../tools/dev/smtp-sink.js';
import type { TestApp } from './app.js';

export type LiveMerchant = { merchantId: string; email: string; liveSecretKey: string };

export async function goLive(input: {
  t: TestApp;
  idp: DevIdentityProvider;
  sink: SmtpSink;
  businessName: string;
  payoutAddress: string;
}): Promise<LiveMerchant> {
  const { t, idp, sink } = input;
  const subject = `golive_${Date.now()}`;
  const email = `${subject}@example.com`;
  const token = await idp.mintToken(subject, { email, name: input.businessName });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const merchantId = (await call('POST', '/v1/auth/sync')).id as string;
  expect((await call('GET', '/v1/merchants/me/live-mode-eligibility')).eligible).toBe(false);
  const refused = await t.app.inject({
    method: 'POST',
    url: '/v1/api-keys',
    headers: { authorization: `Bearer ${token}` },
    payload: { mode: 'live', preset: 'full' },
  });
  expect(refused.statusCode).toBe(403);

  await call('POST', '/v1/merchants/me/email-verification');
  const mail = await sink.waitFor((m) => m.to.includes(email) && /verification code/.test(m.subject), 45_000);
  const code = /code is (\d{6})/.exec(mail.text)?.[1];
  expect((await call('POST', '/v1/merchants/me/email-verification/confirm', { code })).emailVerified).toBe(true);

  const { secret } = await call('POST', '/v1/merchants/me/two-factor');
  expect((await call('POST', '/v1/merchants/me/two-factor/confirm', { code: await totpCode({ secret }) })).twoFactorEnabled).toBe(true);

  const profile = { businessName: input.businessName, sector: 'saas', country: 'us', payoutAddress: input.payoutAddress };
  expect((await call('PUT', '/v1/merchants/me/business-profile', profile)).liveModeEligible).toBe(true);
  expect(await call('GET', '/v1/merchants/me/live-mode-eligibility')).toMatchObject({ eligible: true, reasons: [] });

  const issued = await call('POST', '/v1/api-keys', { mode: 'live', preset: 'full', name: 'production' });
  expect(issued.secret).toMatch(/^sk_live_/);
  expect(issued.key).toMatchObject({ livemode: true });
  return { merchantId, email, liveSecretKey: issued.secret as string };
}
