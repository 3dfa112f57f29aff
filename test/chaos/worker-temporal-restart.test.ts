// Chaos: the Temporal server is stopped while the worker process is relaying payments,
// stays down for 8 seconds, and starts again on the same port with the same database
// file. The worker must keep running through it (no crash, no restart), reconnect by
// itself: the payments in flight before the stop and those requested after the restart
// (which reach the worker only through the restarted server) are each confirmed once, the
// merchant paid the exact sum, and the relayer's nonce moved once per payment.
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

const PAYMENTS = 12;
const AMOUNT = 1_000_000n;
// Longer than the worker's poll and connect timeouts, so it sees the server gone; shorter keeps the suite's time.
const OUTAGE_MS = 8_000;

const relayedPaymentsChaos = useRelayedPaymentsChaos();

describe('the worker through a Temporal server restart', () => {
  it('keeps running while Temporal is down, reconnects, and finishes the payments in flight, each once', async () => {
    const chaos = relayedPaymentsChaos();
    const { stack } = chaos;
    await stack.start('api');
    const worker = await stack.start('worker');
    const { transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const before = await markOnChain(chaos);

    // The first half before the restart; the second after it, so its workflows reach the worker only if it reconnected.
    await requestRelayedPayments(chaos, transfers.slice(0, PAYMENTS / 2), 'chaos-temporal-before');
    await waitForPaymentInFlight(chaos);
    expect((await relayStatus(chaos)).confirmed).toBeLessThan(PAYMENTS / 2);

    await stack.stopTemporal();
    await sleep(OUTAGE_MS);
    // Still the same process, alive through the outage.
    expectStillRunning(worker);
    await stack.restartTemporal();
    await requestRelayedPayments(chaos, transfers.slice(PAYMENTS / 2), 'chaos-temporal-after');

    await waitForPaymentsConfirmed(chaos, PAYMENTS, worker, 'chaos-temporal-restart');
    expectStillRunning(worker);

    expect(await confirmedRelayHashes(chaos)).toHaveLength(PAYMENTS);
    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
  }, 420_000);
});
