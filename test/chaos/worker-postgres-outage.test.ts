// Chaos: Postgres is killed (kill -9) while the worker process is relaying payments,
// stays down for 20 seconds, and comes back on the same port. The worker must keep
// running through it (no crash, no restart) and finish the work it started before the
// outage on its own: every payment confirmed once, the merchant paid the exact sum, and
// the relayer's nonce moved once per payment. Set-up shared with the relay crash tests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../src/dev/temporal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmedRelayHashes,
  expectEachPaidOnce,
  markOnChain,
  relayStatus,
  requestRelayedPayments,
  signTransfers,
  startRelayedPaymentsChaos,
  type RelayedPaymentsChaos,
} from './support/relayed-payments.js';
import { waitUntil } from './support/wait.js';

const PAYMENTS = 10;
const AMOUNT = 1_000_000n;
const OUTAGE_MS = 20_000;

let chaos: RelayedPaymentsChaos;

beforeAll(async () => {
  chaos = await startRelayedPaymentsChaos();
}, 240_000);

afterAll(async () => chaos?.stack.stop(), 60_000);

describe('the worker through a Postgres outage', () => {
  it('keeps running while Postgres is down and finishes the payments started before, each once', async () => {
    const { stack } = chaos;
    await stack.start('api');
    const worker = await stack.start('worker');
    const { transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const before = await markOnChain(chaos);

    await requestRelayedPayments(chaos, transfers, 'chaos-outage');

    const status = () => relayStatus(chaos);
    await waitUntil('a payment sent and not yet confirmed', 120_000, async () => ((await status()).submitted > 0 ? true : undefined), 50);
    expect((await status()).confirmed).toBeLessThan(PAYMENTS);

    await stack.killPostgres();
    await sleep(OUTAGE_MS);
    // Still the same process, alive through the outage.
    expect({ exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({ exitCode: null, signal: null });
    await stack.restartPostgres();

    await waitUntil('every payment confirmed after the outage', 180_000, async () => ((await status().catch(() => undefined))?.confirmed === PAYMENTS ? true : undefined), 500).catch(
      async (error: Error) => {
        // Say where it stood and what the worker printed, so a failure can be explained from the log.
        const last = await status().catch((e: unknown) => String(e));
        const logFile = join(PROJECT_ROOT, '.data', 'test-logs', 'chaos-postgres-outage-worker.log');
        writeFileSync(logFile, worker.log.join('\n'));
        throw new Error(`${error.message}; relay status: ${JSON.stringify(last)}; the worker's log is in .data/test-logs/chaos-postgres-outage-worker.log`);
      },
    );
    expect({ exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({ exitCode: null, signal: null });

    expect(await confirmedRelayHashes(chaos)).toHaveLength(PAYMENTS);
    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
  }, 420_000);
});
