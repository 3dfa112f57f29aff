// Chaos: Postgres is killed (kill -9, no shutdown) under a steady load of
// idempotent invoice creations and reads through the api and worker processes,
// and restarted on the same port seconds later. While it is down, every request
// is answered fast: 503 service_unavailable with Retry-After, never a 500, never
// a hang. When it is back, the same processes serve again without a restart, and
// every request retried with its key ends with exactly one invoice.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant } from '../support/app.js';
import { startChaosStack, type ChaosStack } from './support/stack.js';
import { waitUntil } from './support/wait.js';

/** A request that takes longer than this during the outage counts as hung. */
const CLIENT_TIMEOUT_MS = 15_000;

let stack: ChaosStack;
let merchant: SeededMerchant;

beforeAll(async () => {
  stack = await startChaosStack({ env: { IDEMPOTENCY_LEASE_SECONDS: '5' } });
  merchant = await seedMerchant(stack.sql);
  // Invoices need a payout address.
  await stack.sql`update merchants set payout_address = ${DEV_ACCOUNTS.merchant.address} where id = ${merchant.merchantId}`;
}, 240_000);

afterAll(async () => stack?.stop(), 60_000);

type Answer = { status: number; retryAfter: string | null; code?: string; id?: string; ms: number } | { error: string; ms: number };

async function call(method: 'GET' | 'POST', path: string, key?: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${merchant.secretKey}`,
        ...(key ? { 'idempotency-key': key } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const json = (await response.json().catch(() => ({}))) as { id?: string; error?: { code?: string } };
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      code: json.error?.code,
      id: json.id,
      ms: Date.now() - started,
    };
  } catch (error) {
    return { error: String(error), ms: Date.now() - started };
  }
}

const invoiceBody = (i: number) => ({
  customerEmail: `pg${i}@example.com`,
  lineItems: [{ description: `Order ${i}`, quantity: 1, unitAmount: String(2000 + i) }],
});

describe('Postgres killed and restarted under load', () => {
  it('answers 503 with Retry-After while it is down, recovers by itself, and loses or doubles nothing', async () => {
    await stack.start('api');
    await stack.start('worker');
    const answers: Array<{ phase: 'before' | 'down' | 'after'; answer: Answer }> = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    let next = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        const i = next++;
        const batch = [call('POST', '/v1/invoices', `pg-${i}`, invoiceBody(i)), call('GET', '/v1/invoices?limit=5')];
        const at = phase;
        for (const answer of await Promise.all(batch)) answers.push({ phase: at, answer });
        await sleep(50);
      }
    })();

    await waitUntil('some invoices created', 60_000, async () =>
      answers.filter((a) => 'status' in a.answer && a.answer.status === 200).length >= 10 ? true : undefined,
    );
    await stack.killPostgres();
    phase = 'down';
    // The load's batches are tagged by the phase they started in, and one started
    // before the kill can outlast the outage on a slow machine; so the outage is
    // also probed directly, one awaited request after another, until it ends.
    const downUntil = Date.now() + 6_000;
    do {
      answers.push({ phase: 'down', answer: await call('GET', '/v1/invoices?limit=5') });
      await sleep(200);
    } while (Date.now() < downUntil);
    await stack.restartPostgres();
    phase = 'after';
    await waitUntil('the api serving again', 60_000, async () => {
      const answer = await call('GET', '/v1/invoices?limit=1');
      return 'status' in answer && answer.status === 200 ? true : undefined;
    });
    await sleep(2_000);
    running = false;
    await load;

    const during = answers.filter((a) => a.phase === 'down').map((a) => a.answer);
    expect(during.length).toBeGreaterThan(0);
    // Nothing hung, nothing was a 500; what was refused was a 503 with Retry-After in the envelope.
    expect(during.filter((a) => 'error' in a)).toEqual([]);
    for (const answer of during) {
      if (!('status' in answer)) continue;
      expect(answer.status).not.toBe(500);
      if (answer.status === 503) {
        expect(answer.code).toBe('service_unavailable');
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
    }
    expect(during.some((a) => 'status' in a && a.status === 503)).toBe(true);

    // Every key, retried until answered, ends with exactly one invoice.
    const keys = next;
    const ids = await Promise.all(
      Array.from({ length: keys }, (_, i) =>
        waitUntil(
          `key pg-${i}`,
          60_000,
          async () => {
            const answer = await call('POST', '/v1/invoices', `pg-${i}`, invoiceBody(i));
            return 'status' in answer && answer.status === 200 ? answer.id : undefined;
          },
          250,
        ),
      ),
    );
    expect(new Set(ids).size).toBe(keys);
    const [row] = await stack.sql<
      { count: number }[]
    >`select count(*)::int as count from invoices where merchant_id = ${merchant.merchantId}`;
    expect(row!.count).toBe(keys);
  }, 300_000);
});
