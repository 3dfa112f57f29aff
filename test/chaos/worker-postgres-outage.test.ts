// Chaos: Postgres is killed (kill -9) while the worker process is relaying payments,
// stays down for 10 seconds, and comes back on the same port. The worker must keep
// running through it (no crash, no restart) and finish the work it started before the
// outage on its own: every payment confirmed once, the merchant paid the exact sum, and
// the relayer's nonce moved once per payment. Set-up shared with the relay crash tests.
// It once failed here for good: a transaction of the relayer's sender never settled after
// the restart (a fault of the Postgres client, patched at install: docs/decisions.md,
// "A reserve always settles").
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  confirmedRelayHashes,
  expectEachPaidOnce,
  expectStillRunning,
  markOnChain,
  relayStatus,
  requestRelayedPayments,
  signTransfers,
  useRelayedPaymentsChaos,
  waitForPaymentInFlight,
  waitForPaymentsConfirmed,
} from './support/relayed-payments.js';

const PAYMENTS = 10;
const AMOUNT = 1_000_000n;
// Twice the connect timeout (5 s) and several rounds of the activities' retries; longer only waits out
// longer retry intervals after the restart.
const OUTAGE_MS = 10_000;

const relayedPaymentsChaos = useRelayedPaymentsChaos();

describe('the worker through a Postgres outage', () => {
  it('keeps running while Postgres is down and finishes the payments started before, each once', async () => {
    const chaos = relayedPaymentsChaos();
    const { stack } = chaos;
    await stack.start('api');
    const worker = await stack.start('worker');
    const { transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const before = await markOnChain(chaos);

    await requestRelayedPayments(chaos, transfers, 'chaos-outage');
    await waitForPaymentInFlight(chaos);
    expect((await relayStatus(chaos)).confirmed).toBeLessThan(PAYMENTS);

    await stack.killPostgres();
    await sleep(OUTAGE_MS);
    // Still the same process, alive through the outage.
    expectStillRunning(worker);
    await stack.restartPostgres();

    await waitForPaymentsConfirmed(chaos, PAYMENTS, worker, 'chaos-postgres-outage');
    expectStillRunning(worker);

    expect(await confirmedRelayHashes(chaos)).toHaveLength(PAYMENTS);
    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
  }, 420_000);
});
