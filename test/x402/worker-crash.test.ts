// x402 settles while the worker is SIGKILLed: a production-shaped stack (api
// and worker as processes, chaos stack of test/chaos) on a chain that mines a
// block every 2 seconds, so settlements are sent and not yet mined when the
// worker dies. The seller's official facilitator client settles again until
// it has an answer; each authorization is settled once, with one transaction.
// Set-up shared with test/chaos/worker-crash-relay.test.ts.
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { describe, expect, it } from 'vitest';
import { expectEachPaidOnce, markOnChain, signTransfers, useRelayedPaymentsChaos } from '../chaos/support/relayed-payments.js';
import { waitUntil } from '../chaos/support/wait.js';

const PAYMENTS = 10;
const AMOUNT = 20_000n;

const relayedPaymentsChaos = useRelayedPaymentsChaos();

describe('x402 settle with the worker SIGKILLed', () => {
  it('settles every authorization once after a new worker takes over, and a repeated settle names the same transaction', async () => {
    const chaos = relayedPaymentsChaos();
    const { stack, merchant, payTo } = chaos;
    const info = stack.chain.info;
    await stack.start('api');
    const worker = await stack.start('worker');
    const facilitator = new HTTPFacilitatorClient({
      url: `${stack.apiUrl}/v1/x402`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${merchant.secretKey}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    const { domain, transfers } = await signTransfers(chaos, PAYMENTS, AMOUNT);
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: `eip155:${info.chainId}`,
      amount: AMOUNT.toString(),
      asset: info.token,
      payTo,
      maxTimeoutSeconds: 600,
      extra: { name: domain.name, version: domain.version },
    };
    const payments: PaymentPayload[] = transfers.map((payload, i) => ({
      x402Version: 2,
      resource: { url: `https://seller.example/items/${i}`, description: `item ${i}` },
      accepted: requirements,
      payload,
    }));
    const before = await markOnChain(chaos);

    /** The seller's side: settle, and settle again while the answer is settlement_pending. */
    const settleUntilAnswered = async (payment: PaymentPayload): Promise<SettleResponse> => {
      for (let attempt = 0; ; attempt++) {
        const answer = await facilitator
          .settle(payment, requirements)
          .catch(
            (error: unknown) =>
              ({ success: false, errorReason: String(error), transaction: '', network: requirements.network }) as SettleResponse,
          );
        if (answer.success || attempt >= 10) return answer;
      }
    };
    const answers = Promise.all(payments.map(settleUntilAnswered));

    // Kill once some settlements are sent and not yet mined.
    const sentNotMined = async () =>
      (
        await stack.sql<{ n: number }[]>`
        select count(*)::int as n from relay_submissions where merchant_id = ${merchant.merchantId} and status = 'submitted' and block_number is null`
      )[0]!.n;
    await waitUntil('a settlement sent and not yet mined', 120_000, async () => ((await sentNotMined()) > 0 ? true : undefined), 50);
    await worker.kill();
    await stack.start('worker');

    const settled = await answers;
    expect(settled.map((a) => a.success)).toEqual(Array(PAYMENTS).fill(true));
    const transactions = settled.map((a) => a.transaction);
    expect(new Set(transactions).size).toBe(PAYMENTS);
    // Settled again now: the same transaction, nothing sent.
    const again = await facilitator.settle(payments[0]!, requirements);
    expect(again).toMatchObject({ success: true, transaction: transactions[0] });

    await expectEachPaidOnce(chaos, before, PAYMENTS, AMOUNT);
    // Each is the merchant's payment once its confirmations are in.
    await waitUntil('every x402 session completed', 120_000, async () => {
      const [row] = await stack.sql<{ n: number }[]>`
        select count(*)::int as n from payment_sessions s join x402_payments x on x.payment_session_id = s.id
        where s.merchant_id = ${merchant.merchantId} and s.status = 'completed'`;
      return row!.n === PAYMENTS ? true : undefined;
    });
  }, 420_000);
});
