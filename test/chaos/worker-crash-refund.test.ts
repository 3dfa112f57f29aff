// Chaos: the worker process is SIGKILLed while refunds from the refund allowance are in flight, on a
// chain that mines a block every 2 seconds (transfers are sent and not yet mined when it dies). A new
// worker takes over. Every refund must succeed once: the operator's nonce moves once per refund and
// the customer receives exactly the sum.
import { createWalletClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { useRelayedPaymentsChaos } from './support/relayed-payments.js';
import { waitUntil } from './support/wait.js';

const REFUNDS = 8;
const AMOUNT = 1_000_000n;

const merchantOnChain = useRelayedPaymentsChaos();

describe('worker SIGKILLed mid refund', () => {
  it('sends every refund once after a new worker takes over', async () => {
    const { stack, merchant, pub, payTo: payout } = merchantOnChain();
    const info = stack.chain.info;
    const chain = chainDefinition(info.chainId, info.rpcUrl);
    const customer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
    const api = (path: string, body?: object, key?: string) =>
      fetch(`${stack.apiUrl}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: {
          authorization: `Bearer ${merchant.secretKey}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    await stack.start('api');
    const worker = await stack.start('worker');

    // Payments to refund: sessions paid by the customer through the relay.
    const domain = await readDomain(pub, info.token);
    const validBefore = (await pub.getBlock()).timestamp + 3600n;
    const sessionIds: string[] = [];
    for (let i = 0; i < REFUNDS; i++) {
      const session = (await (await api('/v1/payment-sessions', { amount: AMOUNT.toString() })).json()) as { id: string };
      const message = { from: customer.address, to: payout, value: AMOUNT, validAfter: 0n, validBefore, nonce: randomNonce() };
      const signature = await signAuthorization(customer, domain, 'TransferWithAuthorization', message);
      const paid = await api(
        '/v1/relay/payments',
        {
          authorization: { ...message, value: AMOUNT.toString(), validAfter: '0', validBefore: validBefore.toString() },
          signature,
          paymentSessionId: session.id,
        },
        `chaos-refund-pay-${i}`,
      );
      expect(paid.status).toBe(200);
      sessionIds.push(session.id);
    }
    await waitUntil('every payment completed', 180_000, async () => {
      const [row] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from payment_sessions where id in ${stack.sql(sessionIds)} and status = 'completed'`;
      return row!.n === REFUNDS ? true : undefined;
    });

    // The refund allowance, granted once by a plain approve from the payout wallet. Twice the sum: a refund
    // mined and not yet recorded counts against it for a moment (docs/refunds.md), and this test is about crashes.
    const merchantWallet = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey),
      chain,
      transport: http(info.rpcUrl),
    });
    const approved = await merchantWallet.writeContract({
      address: info.token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [info.operator, 2n * AMOUNT * BigInt(REFUNDS)],
    });
    await waitForDevReceipt(pub, approved);

    const customerBefore = await pub.readContract({
      address: info.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [customer.address],
    });
    const operatorNonceBefore = await pub.getTransactionCount({ address: info.operator });
    const refunds = await Promise.all(
      sessionIds.map(
        async (id, i) =>
          (await (await api('/v1/refunds', { paymentSessionId: id }, `chaos-refund-${i}`)).json()) as { id: string; method: string },
      ),
    );
    expect(refunds.map((r) => r.method)).toEqual(Array(REFUNDS).fill('allowance'));
    const ids = refunds.map((r) => r.id);
    const purposes = ids.map((id) => `refund:${id}`);

    // Kill once some refund transfer is sent and not yet mined, and not all refunds are done.
    await waitUntil('a refund sent and not yet mined', 120_000, async () => {
      const [row] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from chain_transactions where purpose in ${stack.sql(purposes)} and outcome is null`;
      return row!.n > 0 ? true : undefined;
    });
    const [atKill] = await stack.sql<
      { n: number }[]
    >`select count(*)::int as n from refunds where id in ${stack.sql(ids)} and status = 'succeeded'`;
    await worker.kill();
    expect(atKill!.n).toBeLessThan(REFUNDS);

    await stack.start('worker');
    await waitUntil('every refund succeeded', 180_000, async () => {
      const [row] = await stack.sql<
        { n: number }[]
      >`select count(*)::int as n from refunds where id in ${stack.sql(ids)} and status = 'succeeded'`;
      return row!.n === REFUNDS ? true : undefined;
    });

    const customerAfter = await pub.readContract({
      address: info.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [customer.address],
    });
    expect(customerAfter - customerBefore).toBe(AMOUNT * BigInt(REFUNDS));
    const sent = await stack.sql<{ purpose: string }[]>`select purpose from chain_transactions where purpose in ${stack.sql(purposes)}`;
    expect(sent).toHaveLength(REFUNDS);
    // Nothing sent twice: one operator transaction per refund.
    expect((await pub.getTransactionCount({ address: info.operator })) - operatorNonceBefore).toBe(REFUNDS);
    const events = await stack.sql<
      { n: number }[]
    >`select count(*)::int as n from events where type = 'refund.succeeded' and data->'object'->>'id' in ${stack.sql(ids)}`;
    expect(events[0]!.n).toBe(REFUNDS);
  }, 600_000);
});
