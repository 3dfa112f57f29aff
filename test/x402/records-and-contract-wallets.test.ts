// A settled x402 payment in the merchant's records beyond the payment itself: analytics (the day's
// payment sessions in GET /v1/stats/conversion) and refunds (POST /v1/refunds, limited to the payment,
// sent from the refund allowance); and an ERC-1271 contract wallet as the x402 payer, through
// /verify and /settle with the official facilitator client. Private anvil with Circle's USDC, the
// real worker on the Temporal dev server, the app listening.
import type { PaymentRequirements } from '@x402/core/types';
import { type Address, type PublicClient, createWalletClient, decodeFunctionData, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type ContractDomain, readDomain } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { refundOperatorOf } from '../../src/refunds/allowance.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { deployErc1271Wallet, inWalletOrder, walletSignature } from '../support/erc1271-wallet.js';
import {
  authorizationDigest,
  authorizationFor,
  exactRequirements,
  facilitatorFor,
  paymentPayload,
  signedPayment,
} from '../support/x402.js';
import { until } from '../support/until.js';

const AMOUNT = 2_000_000n;
const payout = DEV_ACCOUNTS.merchant.address;
const merchantAccount = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);
const buyer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const owners = inWalletOrder(DEV_ACCOUNTS.payers.slice(1, 4).map((p) => privateKeyToAccount(p.privateKey)));

let stack: PaymentsStack;
let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let domain: ContractDomain;
let network: string;
let requirements: PaymentRequirements;

beforeAll(async () => {
  stack = await startPaymentsStack({ listen: true, pollingIntervalMs: 100 });
  ({ chain, settings, pub, db, t } = stack);
  network = `eip155:${chain.info.chainId}`;
  domain = await readDomain(pub, settings.token);
  merchant = await seedMerchant(db.sql, 'x402 records merchant');
  await setPayoutAddress(db.sql, merchant.merchantId, payout);
  requirements = exactRequirements(network, settings.token, domain, payout, AMOUNT);
}, 120_000);
afterAll(async () => stack?.stop());

const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });
const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: auth() })).json();
const balanceOf = (who: Address) =>
  pub.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });
const chainNow = async () => (await pub.getBlock()).timestamp;
const facilitator = () => facilitatorFor(t, merchant.secretKey);
const walletOf = (account: typeof buyer) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });

/** The payment session an x402 settlement recorded, once completed. */
async function completedSessionOf(transaction: string) {
  const [row] = await db.sql<{ id: string }[]>`
    select x.payment_session_id as id from x402_payments x join relay_submissions r on r.id = x.relay_submission_id
    where r.transaction_hash = ${transaction}`;
  expect(row, `an x402 payment with transaction ${transaction}`).toBeDefined();
  return until(
    () => get(`/v1/payment-sessions/${row!.id}`),
    (s) => s.status === 'completed',
    'the x402 payment session completed',
  );
}

describe('a settled x402 payment in analytics and refunds', () => {
  let sessionId: string;

  it("counts in the day's payment sessions of GET /v1/stats/conversion, created and paid", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const conversion = () => get(`/v1/stats/conversion?from=${today}&to=${today}&interval=day`);
    const before = (await conversion()).summary.paymentSessions;
    const settled = await facilitator().settle(await signedPayment(requirements, domain, buyer, await chainNow()), requirements);
    expect(settled).toMatchObject({ success: true, payer: buyer.address });
    sessionId = (await completedSessionOf(settled.transaction)).id;
    const after = await conversion();
    expect(after.series).toHaveLength(1);
    expect(after.series[0].date).toBe(today);
    expect(after.summary.paymentSessions).toMatchObject({
      created: String(Number(before.created) + 1),
      paid: String(Number(before.paid) + 1),
    });
  });

  it('is refunded through POST /v1/refunds: limited to its amount, sent to the payer from the refund allowance', async () => {
    const over = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: sessionId, amount: (AMOUNT + 1n).toString() },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });

    const operator = refundOperatorOf(settings)!;
    const approved = await walletOf(merchantAccount).writeContract({
      address: settings.token,
      abi: fiatTokenAbi,
      functionName: 'approve',
      args: [operator, AMOUNT],
    });
    expect((await waitForDevReceipt(pub, approved)).status).toBe('success');
    const [buyerBefore, payoutBefore] = await Promise.all([balanceOf(buyer.address), balanceOf(payout)]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: sessionId, amount: '1500000', reason: 'requested_by_customer' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ status: 'processing', method: 'allowance', amount: '1500000', paymentSessionId: sessionId });
    const done = await until(
      () => get(`/v1/refunds/${created.id}`),
      (r) => r.status !== 'processing',
      'the refund settled',
    );
    expect(done).toMatchObject({ status: 'succeeded', failureCode: null });
    expect(await balanceOf(buyer.address)).toBe(buyerBefore + 1_500_000n);
    expect(await balanceOf(payout)).toBe(payoutBefore - 1_500_000n);

    // What remains refundable is the rest of the payment, no more.
    const rest = await t.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: auth(),
      payload: { paymentSessionId: sessionId, amount: '500001' },
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().error).toMatchObject({ code: 'invalid_request', param: 'amount' });
  });
});

describe('an ERC-1271 contract wallet pays through /verify and /settle', () => {
  it.each([
    ['a one-owner wallet: 65-byte signature, the (v, r, s) overload', 1, 9],
    ['a two-owner wallet: 130-byte signature, the bytes overload', 2, 7],
  ] as const)(
    '%s',
    async (_label, threshold, argumentCount) => {
      const signers = owners.slice(0, threshold);
      const wallet = getAddress(await deployErc1271Wallet(pub, walletOf(buyer), signers, threshold, settings.token, 10n * AMOUNT));
      const message = authorizationFor(requirements, wallet, await chainNow());
      const payment = paymentPayload(requirements, message, await walletSignature(signers, authorizationDigest(domain, message)));
      const [walletBefore, payoutBefore] = await Promise.all([balanceOf(wallet), balanceOf(payout)]);

      expect(await facilitator().verify(payment, requirements)).toEqual({ isValid: true, payer: wallet });
      const settled = await facilitator().settle(payment, requirements);
      expect(settled).toMatchObject({ success: true, network, payer: wallet, amount: AMOUNT.toString() });
      const sent = await pub.getTransaction({ hash: settled.transaction as `0x${string}` });
      const call = decodeFunctionData({ abi: fiatTokenAbi, data: sent.input });
      expect(call.functionName).toBe('transferWithAuthorization');
      expect(call.args).toHaveLength(argumentCount);

      // Again: the same transaction, and funds moved once.
      expect(await facilitator().settle(payment, requirements)).toMatchObject({ success: true, transaction: settled.transaction });
      expect(await balanceOf(wallet)).toBe(walletBefore - AMOUNT);
      expect(await balanceOf(payout)).toBe(payoutBefore + AMOUNT);
      const session = await completedSessionOf(settled.transaction);
      expect(session).toMatchObject({ payer: wallet, x402: { payer: wallet, transaction: settled.transaction } });
    },
    120_000,
  );

  it('refuses a signature the wallet does not accept (one owner of a two-owner wallet): invalid signature, nothing sent', async () => {
    const wallet = getAddress(await deployErc1271Wallet(pub, walletOf(buyer), owners.slice(0, 2), 2, settings.token, 10n * AMOUNT));
    const message = authorizationFor(requirements, wallet, await chainNow());
    const payment = paymentPayload(requirements, message, await walletSignature(owners.slice(0, 1), authorizationDigest(domain, message)));
    const [walletBefore, relayerNonce] = await Promise.all([
      balanceOf(wallet),
      pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address }),
    ]);

    expect(await facilitator().verify(payment, requirements)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_signature',
      payer: wallet,
    });
    expect(await facilitator().settle(payment, requirements)).toMatchObject({
      success: false,
      errorReason: 'invalid_exact_evm_signature',
      transaction: '',
    });
    expect(await balanceOf(wallet)).toBe(walletBefore);
    expect(await pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address })).toBe(relayerNonce);
    expect(await db.sql`select 1 from x402_payments where payer = ${wallet.toLowerCase()}`).toHaveLength(0);
  }, 120_000);
});
