// Black-box tests of /v1/agents/* through app.inject against a real database
// (no Temporal: job workflow starts stay in the outbox of starts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_SECRETS_KEY } from '../../src/config.js';
import { agentWalletContext } from '../../src/agents/service.js';
import { createSecretBox } from '../../src/security/encryption.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  merchant = await seedMerchant(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = merchant.secretKey) =>
  t.app.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });

const VENDOR = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const OTHER_VENDOR = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const job = (over: Record<string, unknown> = {}) => ({
  vendorAddress: VENDOR,
  description: 'Translate the docs',
  amount: '5000000',
  currency: 'USDC',
  ...over,
});

describe('agent configuration', () => {
  it('creates the documented defaults on first read, once under concurrent first reads', async () => {
    const fresh = await seedMerchant(db.sql, 'Concurrent');
    const reads = await Promise.all(Array.from({ length: 8 }, () => call('GET', '/v1/agents/config', undefined, fresh.secretKey)));
    for (const r of reads) expect(r.statusCode).toBe(200);
    const config = reads[0]!.json();
    expect(config).toMatchObject({
      object: 'agent_config',
      enabledCapabilities: [],
      recovery: { gracePeriodHours: 72, strategy: 'twice', notificationTemplate: expect.any(String) },
      cashflow: { digestEnabled: false, anomalySensitivity: 'medium', autoConvertToYield: false, minimumLiquidReserveCents: 0 },
      commerce: { requireHumanApprovalAboveUsdCents: 10000, approvedVendors: [], monthlySpendCapUsdCents: 100000 },
      livemode: false,
    });
    for (const r of reads) expect(r.json()).toEqual(config);
    const rows = await db.sql<
      { count: number }[]
    >`select count(*)::int as count from agent_configs where merchant_id = ${fresh.merchantId}`;
    expect(rows[0]!.count).toBe(1);
    const wallets = await db.sql`select address from agent_wallets where merchant_id = ${fresh.merchantId}`;
    expect(wallets).toEqual([{ address: config.agentWallet.address }]);
  });

  it('seals the agent wallet key at rest and never shows it', async () => {
    const config = (await call('GET', '/v1/agents/config')).json();
    const [row] = await db.sql<{ sealedKey: Buffer; address: string }[]>`
      select sealed_key as "sealedKey", address from agent_wallets where merchant_id = ${merchant.merchantId} and livemode = false`;
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const key = createSecretBox(DEV_SECRETS_KEY).open(row!.sealedKey, agentWalletContext(scope));
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(row!.sealedKey.toString('latin1')).not.toContain(key.slice(2));
    // Bound to its row: the same ciphertext does not open as the live wallet.
    expect(() => createSecretBox(DEV_SECRETS_KEY).open(row!.sealedKey, agentWalletContext({ ...scope, livemode: true }))).toThrow();
    expect(config.agentWallet.address).toBe(row!.address);
    await call('POST', '/v1/agents/jobs', job());
    const everything = JSON.stringify([
      config,
      (await call('GET', '/v1/agents/jobs?limit=100')).json(),
      (await call('GET', '/v1/agents/activity?limit=100')).json(),
      t.logs,
    ]);
    expect(everything.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
  });

  it('accepts an empty PATCH and changes nothing', async () => {
    const before = (await call('GET', '/v1/agents/config')).json();
    const patched = await call('PATCH', '/v1/agents/config', {});
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual(before);
  });

  it('keeps test and live configurations apart', async () => {
    await call('PATCH', '/v1/agents/config', { recovery: { gracePeriodHours: 5 } });
    const live = await call('GET', '/v1/agents/config', undefined, merchant.liveSecretKey);
    expect(live.json()).toMatchObject({ livemode: true, recovery: { gracePeriodHours: 72 } });
  });

  it('applies only the keys sent, merging nested objects key by key, and records the change', async () => {
    const before = (await call('GET', '/v1/agents/config')).json();
    const patched = await call('PATCH', '/v1/agents/config', {
      recovery: { strategy: 'daily' },
      commerce: { approvedVendors: [VENDOR.toLowerCase()] },
    });
    expect(patched.statusCode).toBe(200);
    const after = patched.json();
    expect(after.recovery).toEqual({ ...before.recovery, strategy: 'daily' });
    expect(after.cashflow).toEqual(before.cashflow);
    expect(after.commerce).toEqual({ ...before.commerce, approvedVendors: [VENDOR] }); // stored checksummed
    expect(after.enabledCapabilities).toEqual(before.enabledCapabilities);
    expect((await call('GET', '/v1/agents/config')).json()).toEqual(after);

    const feed = (await call('GET', '/v1/agents/activity?actionType=config_updated')).json();
    expect(feed.data[0]).toMatchObject({ capability: 'configuration', actionType: 'config_updated', outcome: 'succeeded', jobId: null });
    expect(feed.data[0].summary).toContain('recovery.strategy');
    expect(feed.data[0].summary).toContain('commerce.approvedVendors');
    const events =
      await db.sql`select type from events where merchant_id = ${merchant.merchantId} and type = 'agent.action_executed' and data->'object'->>'id' = ${feed.data[0].id}`;
    expect(events).toHaveLength(1);
  });

  it.each([
    [{ recovery: { strategy: 'thrice' } }, 'recovery.strategy'],
    [{ cashflow: { anomalySensitivity: 'extreme' } }, 'cashflow.anomalySensitivity'],
    [{ cashflow: { minimumLiquidReserveCents: -1 } }, 'cashflow.minimumLiquidReserveCents'],
    [{ commerce: { requireHumanApprovalAboveUsdCents: 1.5 } }, 'commerce.requireHumanApprovalAboveUsdCents'],
    [{ commerce: { monthlySpendCapUsdCents: '100' } }, 'commerce.monthlySpendCapUsdCents'],
    [{ commerce: { approvedVendors: ['0x90F79bf6EB2c4f870365E785982E1f101E93b907'.replace('F79', 'f79')] } }, 'commerce.approvedVendors.0'],
    [{ commerce: { approvedVendors: ['not-an-address'] } }, 'commerce.approvedVendors.0'],
    [{ enabledCapabilities: ['teleport'] }, 'enabledCapabilities.0'],
    [{ recovery: { gracePeriodHours: 3, unknownKey: 1 } }, 'recovery'],
  ])('refuses %j naming the field, and changes nothing', async (payload, path) => {
    const before = (await call('GET', '/v1/agents/config')).json();
    const refused = await call('PATCH', '/v1/agents/config', payload);
    expect(refused.statusCode).toBe(400);
    const error = refused.json().error;
    expect(error.code).toBe('invalid_request');
    expect(error.details.issues.map((i: { path: string }) => i.path).join(' ')).toContain(path);
    expect((await call('GET', '/v1/agents/config')).json()).toEqual(before);
  });

  it('enforces agents_read and agents_write and refuses publishable keys', async () => {
    const reader = await merchant.keyWithScopes(['agents_read']);
    expect((await call('GET', '/v1/agents/config', undefined, reader)).statusCode).toBe(200);
    const write = await call('PATCH', '/v1/agents/config', { recovery: { gracePeriodHours: 1 } }, reader);
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('permission_denied');
    expect((await call('POST', '/v1/agents/jobs', job(), reader)).json().error.code).toBe('permission_denied');
    const other = await merchant.keyWithScopes(['invoices_read', 'invoices_write']);
    for (const url of ['/v1/agents/config', '/v1/agents/jobs', '/v1/agents/activity']) {
      expect((await call('GET', url, undefined, other)).json().error.code).toBe('permission_denied');
      const pk = await call('GET', url, undefined, merchant.publishableKey);
      expect(pk.statusCode).toBe(403);
    }
    expect((await call('PATCH', '/v1/agents/config', { recovery: { gracePeriodHours: 1 } }, merchant.publishableKey)).statusCode).toBe(403);
  });
});

describe('agent jobs', () => {
  it('auto-approves a job below the threshold for an approved vendor, and proposes the others with their reasons', async () => {
    await call('PATCH', '/v1/agents/config', {
      commerce: { approvedVendors: [VENDOR], requireHumanApprovalAboveUsdCents: 10000, monthlySpendCapUsdCents: 100000 },
    });
    // 99.99 USD: 9,999 cents < 10,000 cents.
    const below = await call('POST', '/v1/agents/jobs', job({ amount: '99990000' }));
    expect(below.statusCode).toBe(200);
    expect(below.json()).toMatchObject({
      object: 'agent_job',
      status: 'approved',
      approvalReasons: [],
      amountUsdCents: '9999',
      vendorAddress: VENDOR,
      onchainJobId: null,
    });
    expect(below.json().id).toMatch(/^job_/);
    expect(below.json().approvedAt).not.toBeNull();

    // Exactly 100 USD is at the threshold: proposed.
    const at = (await call('POST', '/v1/agents/jobs', job({ amount: '100000000' }))).json();
    expect(at).toMatchObject({ status: 'proposed', approvalReasons: ['amount_at_or_above_threshold'], approvedAt: null });
    const unknownVendor = (await call('POST', '/v1/agents/jobs', job({ vendorAddress: OTHER_VENDOR }))).json();
    expect(unknownVendor).toMatchObject({ status: 'proposed', approvalReasons: ['vendor_not_approved'] });

    const proposedEvents =
      await db.sql`select type from events where type = 'agent.job_proposed' and data->'object'->>'id' in ${db.sql([at.id, unknownVendor.id])}`;
    expect(proposedEvents).toHaveLength(2);
    const starts = await db.sql`select workflow_type from workflow_starts where workflow_id = ${below.json().id}`;
    expect(starts).toEqual([{ workflow_type: 'agentJobWorkflow' }]);
  });

  it('proposes a job that would take the month past the spend cap', async () => {
    const m = await seedMerchant(db.sql, 'Capped');
    await call('PATCH', '/v1/agents/config', { commerce: { approvedVendors: [VENDOR], monthlySpendCapUsdCents: 1000 } }, m.secretKey);
    const first = (await call('POST', '/v1/agents/jobs', job({ amount: '6000000' }), m.secretKey)).json(); // 600 cents
    expect(first.status).toBe('approved');
    const second = (await call('POST', '/v1/agents/jobs', job({ amount: '5000000' }), m.secretKey)).json(); // 600 + 500 > 1000
    expect(second).toMatchObject({ status: 'proposed', approvalReasons: ['monthly_spend_cap'] });
    const third = (await call('POST', '/v1/agents/jobs', job({ amount: '4000000' }), m.secretKey)).json(); // 600 + 400 = 1000
    expect(third.status).toBe('approved');
  });

  it('lets only one of two concurrent creates through a cap that fits one', async () => {
    const m = await seedMerchant(db.sql, 'Racing');
    await call('PATCH', '/v1/agents/config', { commerce: { approvedVendors: [VENDOR], monthlySpendCapUsdCents: 1000 } }, m.secretKey);
    const both = await Promise.all([0, 1].map(() => call('POST', '/v1/agents/jobs', job({ amount: '6000000' }), m.secretKey)));
    expect(both.map((r) => r.json().status).sort()).toEqual(['approved', 'proposed']);
  });

  it('approves a proposed job once; approving anything else is session_invalid_state', async () => {
    const proposed = (await call('POST', '/v1/agents/jobs', job({ amount: '500000000' }))).json();
    expect(proposed.status).toBe('proposed');
    const approved = await call('POST', `/v1/agents/jobs/${proposed.id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: proposed.id, status: 'approved' });
    const again = await call('POST', `/v1/agents/jobs/${proposed.id}/approve`);
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('session_invalid_state');
    const signal = await db.sql`select action from workflow_starts where workflow_id = ${proposed.id} order by created_at`;
    expect(signal.map((s) => s.action)).toEqual(['start', 'approveAgentJob']);
    const feed = (await call('GET', `/v1/agents/activity?jobId=${proposed.id}`)).json();
    expect(feed.data.map((a: { actionType: string }) => a.actionType)).toEqual(['job_approved', 'job_proposed']);
  });

  it.each([
    [{ vendorAddress: '0x1234' }, 'vendorAddress'],
    [{ vendorAddress: VENDOR.replace('F79b', 'f79B') }, 'vendorAddress'],
    [{ amount: '0' }, 'amount'],
    [{ amount: '-5' }, 'amount'],
    [{ amount: '1.5' }, 'amount'],
    [{ amount: 100 }, 'amount'],
    [{ currency: 'EURC' }, 'currency'],
    [{ description: '' }, 'description'],
    [{ expiresInSeconds: 1 }, 'expiresInSeconds'],
  ])('refuses a job with %j', async (over, path) => {
    const refused = await call('POST', '/v1/agents/jobs', job(over));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('reads and lists jobs with cursors; unknown and foreign jobs are not_found', async () => {
    const created = (await call('POST', '/v1/agents/jobs', job())).json();
    const read = await call('GET', `/v1/agents/jobs/${created.id}`);
    expect(read.json()).toEqual(created);
    expect((await call('GET', '/v1/agents/jobs/job_01JAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await call('GET', '/v1/agents/jobs/nope')).statusCode).toBe(404);
    expect((await call('POST', '/v1/agents/jobs/job_01JAAAAAAAAAAAAAAAAAAAAAAA/approve')).statusCode).toBe(404);
    expect((await call('GET', `/v1/agents/jobs/${created.id}`, undefined, merchant.liveSecretKey)).statusCode).toBe(404);
    const other = await seedMerchant(db.sql, 'Other');
    expect((await call('GET', `/v1/agents/jobs/${created.id}`, undefined, other.secretKey)).statusCode).toBe(404);

    const page1 = (await call('GET', '/v1/agents/jobs?limit=2')).json();
    expect(page1.data).toHaveLength(2);
    expect(page1.hasMore).toBe(true);
    const page2 = (await call('GET', `/v1/agents/jobs?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.data[0].id < page1.data[1].id).toBe(true);
    const proposed = (await call('GET', '/v1/agents/jobs?status=proposed&limit=100')).json();
    expect(proposed.data.every((j: { status: string }) => j.status === 'proposed')).toBe(true);
  });
});

describe('agent activity feed', () => {
  it('combines filters and pages with the standard envelope', async () => {
    const all = (await call('GET', '/v1/agents/activity?limit=100')).json();
    expect(Object.keys(all).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    const record = all.data[0];
    for (const key of ['capability', 'actionType', 'outcome', 'subscriptionId', 'transactionId', 'jobId', 'createdAt', 'summary'])
      expect(record).toHaveProperty(key);
    const proposed = (
      await call('GET', '/v1/agents/activity?capability=commerce&actionType=job_proposed&outcome=pending_approval&limit=100')
    ).json();
    expect(proposed.data.length).toBeGreaterThan(0);
    expect(
      proposed.data.every(
        (a: { actionType: string; outcome: string }) => a.actionType === 'job_proposed' && a.outcome === 'pending_approval',
      ),
    ).toBe(true);
    const none = (await call('GET', '/v1/agents/activity?capability=configuration&actionType=job_proposed')).json();
    expect(none).toEqual({ data: [], nextCursor: '', hasMore: false });
    const withSub = (
      await call('GET', '/v1/agents/activity?subscriptionId=sub_01JAAAAAAAAAAAAAAAAAAAAAAA&transactionId=0x' + 'ab'.repeat(32))
    ).json();
    expect(withSub.data).toEqual([]);

    const p1 = (await call('GET', '/v1/agents/activity?limit=1')).json();
    const p2 = (await call('GET', `/v1/agents/activity?limit=1&cursor=${p1.nextCursor}`)).json();
    expect(p2.data[0].id < p1.data[0].id).toBe(true);
  });

  it.each([
    ['capability=telepathy', 'capability'],
    ['actionType=dance', 'actionType'],
    ['outcome=maybe', 'outcome'],
    ['subscriptionId=inv_01JAAAAAAAAAAAAAAAAAAAAAAA', 'subscriptionId'],
    ['transactionId=0x12', 'transactionId'],
    ['jobId=sub_01JAAAAAAAAAAAAAAAAAAAAAAA', 'jobId'],
    ['limit=101', 'limit'],
  ])('refuses the filter %s', async (query, param) => {
    const refused = await call('GET', `/v1/agents/activity?${query}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.issues.map((i: { path: string }) => i.path)).toContain(param);
  });
});
