// Chaos: the Temporal server is stopped while the worker process is relaying payments,
// stays down for 15 seconds, and starts again on the same port with the same database
// file. The worker must keep running through it (no crash, no restart), reconnect by
// itself: the payments in flight before the stop and those requested after the restart
// (which reach the worker only through the restarted server) are each confirmed once, the
// merchant paid the exact sum, and the relayer's nonce moved once per payment.
import { setTimeout as sleep } from 'node:timers/promises';
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

const PAYMENTS = 12;
const AMOUNT = 1_000_000n;
const OUTAGE_MS = 15_000;

let chaos: RelayedPaymentsChaos;

beforeAll(async () => {
  chaos = await startRelayedPaymentsChaos();
}, 240_000);

afterAll(async () => chaos?.stack.stop(), 60_000);

describe('the worker through a Temporal server restart', () => {
  it('keeps running while Temporal is down, reconnects, and finishes the payments in flight, each once', async () => {
    const { stack } = chaos;
    await stack.start('api');
    const worker = await stack.start('worker');
    const { transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const before = await markOnChain(chaos);

    // The first half before the restart; the second after it, so its workflows reach the worker only if it reconnected.
    await requestRelayedPayments(chaos, transfers.slice(0, PAYMENTS / 2), 'chaos-temporal-before');

    const status = () => relayStatus(chaos);
    await waitUntil('a payment sent and not yet confirmed', 120_000, async () => ((await status()).submitted > 0 ? true : undefined), 50);
    expect((await status()).confirmed).toBeLessThan(PAYMENTS / 2);

    await stack.stopTemporal();
    await sleep(OUTAGE_MS);
    // Still the same process, alive through the outage.
    expect({ exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({ exitCode: null, signal: null });
    await stack.restartTemporal();
    await requestRelayedPayments(chaos, transfers.slice(PAYMENTS / 2), 'chaos-temporal-after');

    await waitUntil('every payment confirmed after the restart', 180_000, async () => ((await status()).confirmed === PAYMENTS ? true : undefined), 500);
    expect({ exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({ exitCode: null, signal: null });

    expect(await confirmedRelayHashes(chaos)).toHaveLength(PAYMENTS);
    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
  }, 420_000);
});
