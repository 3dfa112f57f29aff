// Chaos: the worker process is SIGKILLed while relayed payments are in flight,
// on a chain that mines a block every 2 seconds, so transactions are sent and
// not yet mined (the window between an on-chain send and its record is real).
// A new worker takes over. Every payment must be confirmed once: 0 lost, 0 sent
// twice (the relayer's nonce moves once per payment), and the merchant is paid
// exactly the sum. Set-up shared with test/x402/worker-crash.test.ts.
import { describe, expect, it } from 'vitest';
import {
  confirmedRelayHashes,
  expectEachPaidOnce,
  markOnChain,
  relayStatus,
  requestRelayedPayments,
  signTransfers,
  useRelayedPaymentsChaos,
  waitForPaymentInFlight,
  waitForPaymentsConfirmed,
} from './support/relayed-payments.js';

const PAYMENTS = 30;
const AMOUNT = 1_000_000n;

const relayedPaymentsChaos = useRelayedPaymentsChaos();

describe('worker SIGKILLed mid relay', () => {
  it('confirms every payment once after a new worker takes over', async () => {
    const chaos = relayedPaymentsChaos();
    const { stack } = chaos;
    await stack.start('api');
    let worker = await stack.start('worker');
    const { transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const before = await markOnChain(chaos);

    await requestRelayedPayments(chaos, transfers, 'chaos-relay');

    // Kill once some transactions are sent and not yet mined, and not all are done.
    await waitForPaymentInFlight(chaos);
    const atKill = await relayStatus(chaos);
    await worker.kill();
    expect(atKill.confirmed).toBeLessThan(PAYMENTS);

    worker = await stack.start('worker');
    await waitForPaymentsConfirmed(chaos, PAYMENTS, worker, 'chaos-crash-relay');

    expect(await confirmedRelayHashes(chaos)).toHaveLength(PAYMENTS);
    // Paid the sum, and nothing sent twice: one relayer transaction per payment.
    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
  }, 420_000);
});
