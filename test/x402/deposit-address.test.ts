// x402 paying a deposit address (payTo = a payment session's deposit address, src/x402/recipient.ts):
// the settled transfer lands at the deposit address, the real indexer records it as the session's
// deposit, the session completes through the deposit rules and the funds are swept to the payout
// address; the sale is one payment (the deposit session, with the x402 fields), not two. Another
// merchant's deposit address, or one of another mode, is refused. Private anvil with Circle's USDC,
// the real worker on the Temporal dev server, the app listening for the official facilitator client.
import type { PaymentRequirements } from '@x402/core/types';
import type { Address, PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSettings } from '../../src/chain/config.js';
import { depositAddressOf } from '../../src/chain/deposits/deposit-address.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../src/chain/deposits/deposit-contracts.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type ContractDomain, readDomain } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { newId } from '../../src/ids.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { insertPaymentSession } from '../../src/payment-sessions/repo.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { exactRequirements, facilitatorFor, signedPayment } from '../support/x402.js';
import { until } from '../support/until.js';

const AMOUNT = 1_000_000n;
const payout = DEV_ACCOUNTS.merchant.address;
const otherPayout = privateKeyToAccount(generatePrivateKey()).address;
const [buyer, secondBuyer] = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey));

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let other: SeededMerchant;
let pub: PublicClient;
let domain: ContractDomain;
let network: string;

beforeAll(async () => {
  stack = await startPaymentsStack({ depositIndexer: true, listen: true });
  ({ chain, settings, pub, db, t } = stack);
  network = `eip155:${chain.info.chainId}`;
  domain = await readDomain(pub, settings.token);
  merchant = await seedMerchant(db.sql, 'x402 deposit merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
  other = await seedMerchant(db.sql, 'Another merchant');
  await setPayoutAddress(db.sql, other.merchantId, otherPayout);
}, 120_000);
afterAll(async () => stack?.stop());

type Session = {
  id: string;
  status: string;
  transactionHash: string | null;
  x402: { transaction: string; payer: string; resource: { url: string } } | null;
  deposit: { address: Address; amountReceived: string; amountExcess: string };
};

async function createSession(key: string, amount: bigint): Promise<Session> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/payment-sessions',
    headers: { authorization: `Bearer ${key}` },
    payload: { amount: amount.toString() },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const getSession = async (id: string): Promise<Session> =>
  (
    await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${id}`, headers: { authorization: `Bearer ${merchant.secretKey}` } })
  ).json();

const balanceOf = (who: Address) =>
  pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });
const chainNow = async () => (await pub.getBlock()).timestamp;
const requirementsTo = (payTo: Address, amount = AMOUNT): PaymentRequirements =>
  exactRequirements(network, settings.token, domain, payTo, amount);
const facilitator = () => facilitatorFor(t, merchant.secretKey);

describe('x402 to a deposit address', () => {
  it('pays an open deposit session of the merchant: one transfer, credited as its deposit, swept to the payout, one payment', async () => {
    const session = await createSession(merchant.secretKey, AMOUNT);
    const requirements = requirementsTo(session.deposit.address);
    const payment = await signedPayment(requirements, domain, buyer!, await chainNow());
    const [buyerBefore, payoutBefore] = await Promise.all([balanceOf(buyer!.address), balanceOf(payout)]);
    const sessionsBefore = (await db.sql`select id from payment_sessions where merchant_id = ${merchant.merchantId}`).length;

    expect(await facilitator().verify(payment, requirements)).toEqual({ isValid: true, payer: buyer!.address });
    const settled = await facilitator().settle(payment, requirements);
    expect(settled).toMatchObject({ success: true, network, payer: buyer!.address, amount: AMOUNT.toString() });
    expect((await pub.getTransactionReceipt({ hash: settled.transaction as `0x${string}` })).status).toBe('success');
    expect(await balanceOf(buyer!.address)).toBe(buyerBefore - AMOUNT);

    // The deposit rules complete the session with the x402 transaction; the session carries the x402 fields.
    const done = await until(
      () => getSession(session.id),
      (s) => s.status === 'completed',
      'the deposit session completed',
    );
    expect(done).toMatchObject({
      transactionHash: settled.transaction,
      x402: { transaction: settled.transaction, payer: buyer!.address, resource: { url: 'https://seller.example/report' } },
      deposit: { amountReceived: AMOUNT.toString(), amountExcess: '0' },
    });
    // Swept once to the payout address like any deposit.
    const [deposit] = await until(
      () => db.sql<{ status: string; amount: string; fromAddress: string; sweptAt: Date | null }[]>`
        select status, amount::text as amount, from_address as "fromAddress", swept_at as "sweptAt" from deposits where payment_session_id = ${session.id}`,
      (rows) => rows.length === 1 && rows[0]!.sweptAt !== null,
      'the deposit swept',
    );
    expect(deposit).toMatchObject({ status: 'credited', amount: AMOUNT.toString(), fromAddress: buyer!.address });
    expect(await balanceOf(session.deposit.address)).toBe(0n);
    expect(await balanceOf(payout)).toBe(payoutBefore + AMOUNT);

    // One payment: no session of the settle's own, the relay submission pays no session, one payment.completed.
    expect((await db.sql`select id from payment_sessions where merchant_id = ${merchant.merchantId}`).length).toBe(sessionsBefore);
    const [link] = await db.sql<{ sessionId: string; submissionSession: string | null }[]>`
      select x.payment_session_id as "sessionId", r.payment_session_id as "submissionSession"
      from x402_payments x join relay_submissions r on r.id = x.relay_submission_id where r.transaction_hash = ${settled.transaction}`;
    expect(link).toEqual({ sessionId: session.id, submissionSession: null });
    const completed = await db.sql`select 1 from events where type = 'payment.completed' and data->'object'->>'id' = ${session.id}`;
    expect(completed).toHaveLength(1);

    // The same payment again: the same transaction; verifying it again names the replay.
    expect(await facilitator().settle(payment, requirements)).toMatchObject({ success: true, transaction: settled.transaction });
    expect(await facilitator().verify(payment, requirements)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_nonce_already_used',
    });
    // Another payment to the paid session's address is refused: it takes no more payment.
    const another = await signedPayment(requirements, domain, secondBuyer!, await chainNow());
    expect(await facilitator().verify(another, requirements)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_recipient_mismatch',
    });
    expect(await balanceOf(buyer!.address)).toBe(buyerBefore - AMOUNT);
  });

  it('refuses a payment to a deposit session for another amount (value mismatch), and nothing moves', async () => {
    const session = await createSession(merchant.secretKey, AMOUNT);
    const requirements = requirementsTo(session.deposit.address, AMOUNT - 1n);
    const payment = await signedPayment(requirements, domain, secondBuyer!, await chainNow());
    const before = await balanceOf(secondBuyer!.address);
    const verdict = await facilitator().verify(payment, requirements);
    expect(verdict).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_value_mismatch' });
    expect(verdict.invalidMessage).toContain(session.id);
    expect(await facilitator().settle(payment, requirements)).toMatchObject({
      success: false,
      errorReason: 'invalid_exact_evm_payload_authorization_value_mismatch',
      transaction: '',
    });
    expect(await balanceOf(secondBuyer!.address)).toBe(before);
    expect((await getSession(session.id)).status).toBe('open');
  });

  it("refuses another merchant's deposit address and a deposit address of another mode (recipient mismatch); nothing is recorded", async () => {
    const theirs = await createSession(other.secretKey, AMOUNT);
    // A live-mode session of the same merchant: its deposit address is on the live chain.
    const liveId = newId('paymentSession');
    const live = await insertPaymentSession(db.sql, {
      id: liveId,
      merchantId: merchant.merchantId,
      livemode: true,
      amount: AMOUNT.toString(),
      currency: 'USDC',
      payTo: payout,
      token: settings.token,
      chainId: 8453,
      expiresAt: new Date(Date.now() + 3_600_000),
      successUrl: null,
      cancelUrl: null,
      metadata: {},
      depositAddress: depositAddressOf(DEPOSIT_FACTORY_ADDRESS, liveId, payout),
    });
    const before = await balanceOf(secondBuyer!.address);
    for (const address of [theirs.deposit.address, live.depositAddress as Address]) {
      const requirements = requirementsTo(address);
      const payment = await signedPayment(requirements, domain, secondBuyer!, await chainNow());
      expect({ address, ...(await facilitator().verify(payment, requirements)) }).toMatchObject({
        address,
        isValid: false,
        invalidReason: 'invalid_exact_evm_recipient_mismatch',
      });
      expect({ address, ...(await facilitator().settle(payment, requirements)) }).toMatchObject({
        address,
        success: false,
        errorReason: 'invalid_exact_evm_recipient_mismatch',
        transaction: '',
      });
    }
    // The other merchant can take the same payment to its own deposit address.
    const requirements = requirementsTo(theirs.deposit.address);
    expect(
      await facilitatorFor(t, other.secretKey).verify(
        await signedPayment(requirements, domain, secondBuyer!, await chainNow()),
        requirements,
      ),
    ).toMatchObject({
      isValid: true,
    });
    expect(await balanceOf(secondBuyer!.address)).toBe(before);
    expect(await db.sql`select 1 from x402_payments where payer = ${secondBuyer!.address.toLowerCase()}`).toHaveLength(0);
  });
});
