// Live-mode checks, key management and leaked-key rotation, with the real mail
// path: the email outbox, the delivery workflow on a Temporal worker, nodemailer
// and the dev SMTP sink.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { generate as totpCode } from 'otplib';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../tools/dev/smtp-sink.js';
import { createMailer, type Mailer } from '../../src/email/mailer.js';
import { TASK_QUEUES } from '../../src/temporal/task-queues.js';
import { createWorker } from '../../src/temporal/worker.js';
import { testWebhookSettings, workflowBundle } from '../support/temporal.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, seedMerchant, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
let idp: DevIdentityProvider;
let sink: SmtpSink;
let mailer: Mailer;
let client: Client;
let nativeConnection: NativeConnection;
let bundle: { code: string };
const taskQueue = `${TASK_QUEUES.main}-accounts-${randomBytes(4).toString('hex')}`;
const partner = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const PARTNER_KEY_ID = 'partner-key-1';

beforeAll(async () => {
  db = await createTestDatabase();
  idp = await startDevIdentityProvider();
  sink = await startSmtpSink();
  mailer = createMailer({ smtpUrl: sink.smtpUrl, from: 'StablePay <no-reply@stablepay.local>' });
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  bundle = await workflowBundle();
  t = await createTestApp(db.sql, {
    temporal: client,
    taskQueue,
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: idp.audience,
      OIDC_JWKS_URL: idp.jwksUrl,
      SECRET_SCANNING_PUBLIC_KEYS: JSON.stringify({
        public_keys: [{ key_identifier: PARTNER_KEY_ID, key: partner.publicKey.export({ type: 'spki', format: 'pem' }) }],
      }),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await nativeConnection?.close();
  await client?.connection.close();
  mailer?.close();
  await sink?.stop();
  await idp?.stop();
  await db?.drop();
});

/** Runs a worker (with the real mailer) until a mail matching `predicate` reached the sink. */
async function deliveredMail(predicate: (mail: ReceivedMail) => boolean): Promise<ReceivedMail> {
  const worker = await createWorker({
    connection: nativeConnection,
    namespace: 'default',
    sql: db.sql,
    temporal: client,
    mailer,
    workflowBundle: bundle,
    taskQueue,
    webhooks: testWebhookSettings(),
  });
  return worker.runUntil(sink.waitFor(predicate, 45_000));
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let counter = 0;

async function newDashboardUser() {
  const subject = `acct_${Date.now()}_${++counter}`;
  const email = `${subject}@example.com`;
  const token = await idp.mintToken(subject, { email, name: 'Acme' });
  const sync = await t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: bearer(token) });
  expect(sync.statusCode).toBe(200);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  return { subject, email, token, merchantId: sync.json().id as string, call };
}

type User = Awaited<ReturnType<typeof newDashboardUser>>;

async function verifyEmail(user: User) {
  const started = await user.call('POST', '/v1/merchants/me/email-verification');
  expect(started.statusCode).toBe(200);
  expect(started.json()).toMatchObject({ object: 'email_verification', email: user.email });
  const mail = await deliveredMail((m) => m.to.includes(user.email) && /verification code/.test(m.subject));
  const code = /code is (\d{6})/.exec(mail.text)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

async function enableTwoFactor(user: User) {
  const enrol = await user.call('POST', '/v1/merchants/me/two-factor');
  expect(enrol.statusCode).toBe(200);
  const { secret, otpauthUri } = enrol.json();
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
  expect(otpauthUri).toContain(`secret=${secret}`);
  return secret as string;
}

const businessProfile = {
  businessName: 'Acme GmbH',
  sector: 'saas',
  country: 'de',
  payoutAddress: '0x52908400098527886e0f7030069857d2e4169ee7',
};

describe('live-mode eligibility', () => {
  it('lists a reason per unmet check, and a live key can be issued the moment all three pass', async () => {
    const user = await newDashboardUser();
    const initial = await user.call('GET', '/v1/merchants/me/live-mode-eligibility');
    expect(initial.statusCode).toBe(200);
    expect(initial.json().eligible).toBe(false);
    expect(initial.json().reasons.map((r: { code: string }) => r.code)).toEqual([
      'email_not_verified',
      'two_factor_not_enabled',
      'business_profile_missing',
    ]);

    const refusedLive = await user.call('POST', '/v1/api-keys', { mode: 'live', preset: 'full' });
    expect(refusedLive.statusCode).toBe(403);
    expect(refusedLive.json().error.code).toBe('permission_denied');
    expect(refusedLive.json().error.details.reasons).toHaveLength(3);

    // 1. Email verification through the mail path.
    const code = await verifyEmail(user);
    const wrong = await user.call('POST', '/v1/merchants/me/email-verification/confirm', { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    const confirmed = await user.call('POST', '/v1/merchants/me/email-verification/confirm', { code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().emailVerified).toBe(true);
    const reused = await user.call('POST', '/v1/merchants/me/email-verification/confirm', { code });
    expect(reused.statusCode).toBe(400);

    // 2. TOTP: a wrong code is refused, a current one enables it; the secret is encrypted at rest.
    const secret = await enableTwoFactor(user);
    const badTotp = await user.call('POST', '/v1/merchants/me/two-factor/confirm', { code: '000000' });
    expect(badTotp.statusCode).toBe(400);
    const goodTotp = await user.call('POST', '/v1/merchants/me/two-factor/confirm', { code: await totpCode({ secret }) });
    expect(goodTotp.statusCode).toBe(200);
    expect(goodTotp.json().twoFactorEnabled).toBe(true);
    const stored = await db.sql<{ totp_secret: Buffer }[]>`select totp_secret from merchants where id = ${user.merchantId}`;
    expect(stored[0]!.totp_secret.toString('latin1')).not.toContain(secret);

    const partial = (await user.call('GET', '/v1/merchants/me/live-mode-eligibility')).json();
    expect(partial.reasons).toEqual([expect.objectContaining({ check: 'business_onboarding', code: 'business_profile_missing' })]);
    expect(partial.checks.emailVerification.passed).toBe(true);

    // 3. Business onboarding.
    const onboarded = await user.call('PUT', '/v1/merchants/me/business-profile', businessProfile);
    expect(onboarded.statusCode).toBe(200);
    expect(onboarded.json().business).toEqual({
      name: 'Acme GmbH',
      sector: 'saas',
      country: 'DE',
      payoutAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(onboarded.json().liveModeEligible).toBe(true);

    const eligible = (await user.call('GET', '/v1/merchants/me/live-mode-eligibility')).json();
    expect(eligible).toMatchObject({ eligible: true, reasons: [] });
    const live = await user.call('POST', '/v1/api-keys', { mode: 'live', preset: 'read-only', name: 'prod reader' });
    expect(live.statusCode).toBe(200);
    expect(live.json().secret).toMatch(/^sk_live_/);
    expect(live.json().key).toMatchObject({ mode: 'live', livemode: true, name: 'prod reader' });

    const liveSession = await t.app.inject({
      method: 'GET',
      url: '/v1/subscription-plans',
      headers: { ...bearer(user.token), 'service-mode': 'live' },
    });
    expect(liveSession.statusCode).toBe(200);
  });

  it.each([
    [{ ...businessProfile, payoutAddress: '0x1234' }, 'payoutAddress'],
    [{ ...businessProfile, payoutAddress: '0x52908400098527886E0F7030069857D2E4169Ee7' }, 'payoutAddress'],
    [{ ...businessProfile, country: 'XX' }, 'country'],
    [{ ...businessProfile, country: 'Germany' }, 'country'],
    [{ ...businessProfile, sector: 'weapons' }, 'sector'],
    [{ ...businessProfile, businessName: '' }, 'businessName'],
  ])('refuses business profile %j on %s and records nothing', async (payload, param) => {
    const user = await newDashboardUser();
    const response = await user.call('PUT', '/v1/merchants/me/business-profile', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.param).toBe(param);
    const rows = await db.sql`select onboarded_at from merchants where id = ${user.merchantId}`;
    expect(rows[0]!.onboarded_at).toBeNull();
  });
});

describe('key management', () => {
  it('issues (secret shown once), lists, revokes and audits keys', async () => {
    const user = await newDashboardUser();
    const issued = await user.call('POST', '/v1/api-keys', { mode: 'test', preset: 'read-only', name: 'reporting' });
    expect(issued.statusCode).toBe(200);
    const { key, secret } = issued.json();
    expect(secret).toMatch(/^sk_test_/);
    expect(key).toMatchObject({
      kind: 'secret',
      mode: 'test',
      prefix: 'sk_test_',
      last4: secret.slice(-4),
      revoked: false,
      pendingReveal: false,
    });
    expect(key.scopes.every((s: string) => s.endsWith('_read'))).toBe(true);

    const publishable = await user.call('POST', '/v1/api-keys', { mode: 'test', kind: 'publishable' });
    expect(publishable.json().secret).toMatch(/^pk_test_/);

    const list = await user.call('GET', '/v1/api-keys');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([publishable.json().key.id, key.id]);
    expect(JSON.stringify(list.json())).not.toContain(secret);

    // The key works, is refused on a write route without the scope, then is revoked.
    const read = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(secret) });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/subscription-plans',
      headers: bearer(secret),
      payload: { name: 'x', amount: '1', interval: 'daily' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toMatchObject({ code: 'permission_denied', details: { requiredScope: 'plans_write' } });

    const revoked = await user.call('POST', `/v1/api-keys/${key.id}/revoke`, { reason: 'rotating' });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ revoked: true, revokedReason: 'rotating' });
    const after = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(secret) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('authentication_error');

    const audit = (await user.call('GET', `/v1/api-keys/audit-log?apiKeyId=${key.id}`)).json();
    expect(audit.data.map((e: { action: string }) => e.action)).toEqual(['revoked', 'issued']);
    expect(audit.data[0]).toMatchObject({ actor: `dashboard:${user.subject}`, reason: 'rotating' });
  });

  it("validates issue requests and hides other merchants' keys", async () => {
    const user = await newDashboardUser();
    const other = await newDashboardUser();
    expect((await user.call('POST', '/v1/api-keys', { mode: 'test' })).statusCode).toBe(400);
    expect((await user.call('POST', '/v1/api-keys', { mode: 'test', preset: 'full', scopes: ['plans_read'] })).statusCode).toBe(400);
    expect((await user.call('POST', '/v1/api-keys', { mode: 'test', scopes: ['plans_delete'] })).statusCode).toBe(400);
    expect((await user.call('POST', '/v1/api-keys/not-an-id/revoke')).statusCode).toBe(404);
    const theirs = (await other.call('POST', '/v1/api-keys', { mode: 'test', preset: 'full' })).json();
    const foreign = await user.call('POST', `/v1/api-keys/${theirs.key.id}/revoke`);
    expect(foreign.statusCode).toBe(404);
    expect((await user.call('GET', '/v1/api-keys')).json().data).toEqual([]);
  });
});

function signedReport(body: unknown, privateKey = partner.privateKey, keyId = PARTNER_KEY_ID) {
  const payload = JSON.stringify(body);
  const signature = sign('sha256', Buffer.from(payload), privateKey).toString('base64');
  return {
    method: 'POST' as const,
    url: '/v1/secret-scanning/reports',
    headers: { 'content-type': 'application/json', 'secret-scanning-key-identifier': keyId, 'secret-scanning-signature': signature },
    payload,
  };
}

describe('leaked secret keys', () => {
  it('refuses an unsigned, mis-signed or unknown-key report and changes nothing', async () => {
    const seeded = await seedMerchant(db.sql, 'Leaky');
    const body = [{ token: seeded.secretKey, type: 'stablepay_secret_key', url: 'https://example.com/x', source: 'content' }];
    const intruder = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const bad = [
      { ...signedReport(body), headers: { 'content-type': 'application/json' } },
      signedReport(body, intruder.privateKey),
      signedReport(body, partner.privateKey, 'unknown-key'),
      { ...signedReport(body), payload: JSON.stringify([{ ...body[0], url: 'https://tampered.example.com' }]) },
    ];
    for (const request of bad) {
      const response = await t.app.inject(request);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('authentication_error');
    }
    const stillWorks = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(seeded.secretKey) });
    expect(stillWorks.statusCode).toBe(200);
  });

  it('revokes a leaked key, issues a replacement with the same scopes, emails the owner without the key and audits it', async () => {
    const user = await newDashboardUser();
    const leaked = (await user.call('POST', '/v1/api-keys', { mode: 'test', scopes: ['plans_read', 'plans_write'], name: 'ci' })).json();
    expect((await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(leaked.secret) })).statusCode).toBe(200);

    const report = await t.app.inject(
      signedReport([
        { token: leaked.secret, type: 'stablepay_secret_key', url: 'https://github.com/acme/app/blob/main/.env', source: 'content' },
        {
          token: 'sk_test_notarealkeynotarealkeynotarealkeynotarealkey1',
          type: 'stablepay_secret_key',
          url: 'https://x',
          source: 'content',
        },
      ]),
    );
    expect(report.statusCode).toBe(200);
    expect(report.json()).toEqual([
      {
        token_hash: createHash('sha256').update(leaked.secret).digest('hex'),
        token_type: 'stablepay_secret_key',
        label: 'true_positive',
        action: 'revoked_and_replaced',
      },
      expect.objectContaining({ label: 'false_positive', action: 'none' }),
    ]);
    expect(report.body).not.toContain(leaked.secret);

    const old = await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(leaked.secret) });
    expect(old.statusCode).toBe(401);

    const keys = (await user.call('GET', '/v1/api-keys')).json().data;
    const replacement = keys.find((k: { id: string }) => k.id !== leaked.key.id);
    expect(replacement).toMatchObject({
      name: 'ci',
      mode: 'test',
      scopes: ['plans_read', 'plans_write'],
      pendingReveal: true,
      revoked: false,
    });
    expect(keys.find((k: { id: string }) => k.id === leaked.key.id)).toMatchObject({ revoked: true, revokedReason: 'leaked' });

    const mail = await deliveredMail((m) => m.to.includes(user.email) && /found in public/.test(m.subject));
    expect(mail.text).toContain(replacement.id);
    expect(mail.text).not.toMatch(/sk_(test|live)_[A-Za-z0-9]{20,}/);

    const revealed = await user.call('POST', `/v1/api-keys/${replacement.id}/reveal`);
    expect(revealed.statusCode).toBe(200);
    const newSecret = revealed.json().secret as string;
    expect(newSecret).toMatch(/^sk_test_/);
    expect(newSecret.slice(-4)).toBe(replacement.last4);
    expect((await t.app.inject({ method: 'GET', url: '/v1/subscription-plans', headers: bearer(newSecret) })).statusCode).toBe(200);
    const again = await user.call('POST', `/v1/api-keys/${replacement.id}/reveal`);
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');

    const audit = (await user.call('GET', '/v1/api-keys/audit-log')).json().data;
    expect(audit.map((e: { action: string; actor: string; apiKeyId: string }) => [e.action, e.actor, e.apiKeyId])).toEqual([
      ['revealed', `dashboard:${user.subject}`, replacement.id],
      ['issued', 'secret_scanning', replacement.id],
      ['revoked', 'secret_scanning', leaked.key.id],
      ['issued', `dashboard:${user.subject}`, leaked.key.id],
    ]);

    const repeat = await t.app.inject(
      signedReport([{ token: leaked.secret, type: 'stablepay_secret_key', url: 'https://x', source: 'content' }]),
    );
    expect(repeat.json()[0]).toMatchObject({ label: 'true_positive', action: 'already_revoked' });
  });
});
