// A payout address of its own on chain B (issue 39, item 4), for the money paths besides sessions (those are in
// multi-chain.test.ts): two anvils with Circle's USDC, the real worker, both chains' indexers and the API. The
// merchant sets chain B's payout from the dashboard (PUT /v1/merchants/me/payout-addresses/{chainId}); then
//   an x402 payment settled on chain B must pay B's payout (the account's payout is a recipient mismatch there) and
//   lands in it, on B only;
//   the enrolment offer on chain B names B's payout as terms.merchant (A's names the account's); a subscription
//   enrolled on B is recorded with chain B and its first charge pays B's payout on B; the API relay refuses an
//   enrolment on B naming the account's payout (`terms.merchant`) and sends nothing.
import { type Address, type Hex, createWalletClient, erc20Abi, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/api-keys/scopes.js';
import { issueKey } from '../../src/api-keys/service.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { readDomain } from '../../src/chain/typed-data.js';
import { addMerchantChainAddress, setPayoutAddress } from '../../src/merchants/repo.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startDevIdentityProvider, type DevIdentityProvider } from '../../tools/dev/identity-provider.js';
import { signEnrolmentBody, type EnrolmentOffer } from '../support/enrolment-signing.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { until } from '../support/until.js';
import { exactRequirements, facilitatorFor, signedPayment } from '../support/x402.js';

let stack: PaymentsStack;
let idp: DevIdentityProvider;
let a: ChainSettings;
let b: ChainSettings;
let secretKey: string;
const accountPayout = privateKeyToAccount(generatePrivateKey()).address;
const chainBPayout = privateKeyToAccount(generatePrivateKey()).address;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const buyer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);

const clientOf = (s: ChainSettings) => (s === b ? stack.second!.pub : stack.pub);
const balanceOn = (s: ChainSettings, who: Address) =>
  clientOf(s).readContract({ address: s.token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
const api = (method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) =>
  stack.t.app.inject({ method, url, headers: { authorization: `Bearer ${secretKey}`, ...extra }, ...(payload ? { payload } : {}) });
const sentOn = async (chainId: number) =>
  Number((await stack.db.sql`select count(*)::int as n from chain_transactions where chain_id = ${chainId}`)[0]!.n);

async function transferOn(s: ChainSettings, to: Address, value: bigint): Promise<void> {
  const wallet = createWalletClient({ account: payer, chain: chainDefinition(s.chainId, s.rpcUrl), transport: http(s.rpcUrl) });
  const hash = await wallet.writeContract({ address: s.token, abi: erc20Abi, functionName: 'transfer', args: [to, value], gas: 200_000n });
  expect((await waitForDevReceipt(clientOf(s), hash)).status).toBe('success');
}

beforeAll(async () => {
  // Dashboard sessions: a chain's payout address is set from the dashboard only.
  idp = await startDevIdentityProvider();
  stack = await startPaymentsStack({
    listen: true,
    depositIndexer: true,
    secondChain: true,
    subscriptions: true,
    appEnv: { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl },
  });
  a = stack.settings;
  b = stack.second!.settings;
  const dashboard = await idp.mintToken(`chain_payouts_${Date.now()}`, { email: 'chain-payouts@example.com', name: 'Chain payouts' });
  const sync = await stack.t.app.inject({ method: 'POST', url: '/v1/auth/sync', headers: { authorization: `Bearer ${dashboard}` } });
  expect(sync.statusCode, sync.body).toBe(200);
  const merchantId = sync.json().id as string;
  // The account's payout as onboarding leaves it: set, and the merchant's on every chain.
  await setPayoutAddress(stack.db.sql, merchantId, accountPayout);
  await addMerchantChainAddress(stack.db.sql, { merchantId, livemode: false, address: accountPayout });
  secretKey = (await issueKey(stack.db.sql, { merchantId, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'test' })).secret;
  const set = await stack.t.app.inject({
    method: 'PUT',
    url: `/v1/merchants/me/payout-addresses/${b.chainId}`,
    headers: { authorization: `Bearer ${dashboard}` },
    payload: { payoutAddress: chainBPayout },
  });
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json().data.map((p: { payoutAddress: string }) => p.payoutAddress)).toEqual([accountPayout, chainBPayout]);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await idp?.stop();
});

describe("x402 on chain B pays B's own payout address", () => {
  const AMOUNT = 1_250_000n;

  it("refuses payTo = the account's payout on B (not the merchant's there), then settles to B's payout on B only", async () => {
    const domain = await readDomain(clientOf(b), b.token);
    const facilitator = facilitatorFor(stack.t, secretKey);
    const now = (await clientOf(b).getBlock()).timestamp;
    const before = await Promise.all([balanceOn(b, chainBPayout), balanceOn(b, accountPayout), balanceOn(a, chainBPayout)]);

    const toAccount = exactRequirements(`eip155:${b.chainId}`, b.token, domain, accountPayout, AMOUNT);
    const misdirected = await signedPayment(toAccount, domain, buyer, now);
    expect(await facilitator.verify(misdirected, toAccount)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_recipient_mismatch',
    });
    expect(await facilitator.settle(misdirected, toAccount)).toMatchObject({ success: false });

    const toChainB = exactRequirements(`eip155:${b.chainId}`, b.token, domain, chainBPayout, AMOUNT);
    const payment = await signedPayment(toChainB, domain, buyer, now);
    expect(await facilitator.verify(payment, toChainB)).toMatchObject({ isValid: true, payer: buyer.address });
    const settled = await facilitator.settle(payment, toChainB);
    expect(settled).toMatchObject({ success: true, network: `eip155:${b.chainId}`, payer: buyer.address });
    expect((await clientOf(b).getTransactionReceipt({ hash: settled.transaction as Hex })).status).toBe('success');
    expect(await Promise.all([balanceOn(b, chainBPayout), balanceOn(b, accountPayout), balanceOn(a, chainBPayout)])).toEqual([
      before[0]! + AMOUNT,
      before[1],
      before[2],
    ]);
  });
});

describe("a subscription enrolled on chain B pays B's own payout address", () => {
  type Offer = EnrolmentOffer & { chainId: number };
  let planId: string;
  const offerOn = async (chainId: number): Promise<Offer> => {
    const res = await stack.t.app.inject({ method: 'GET', url: `/checkout/plans/${planId}/enrolment?chainId=${chainId}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const signOn = async (s: ChainSettings, offer: EnrolmentOffer, subscriber: ReturnType<typeof privateKeyToAccount>) => {
    const on = { client: clientOf(s), token: s.token };
    const deadline = (await clientOf(s).getBlock()).timestamp + 3600n;
    return signEnrolmentBody(offer, subscriber, { permit: on, enrolment: on }, deadline);
  };

  beforeAll(async () => {
    const res = await api('POST', '/v1/subscription-plans', { name: 'Monthly, both chains', amount: '2000000', interval: 'monthly' });
    expect(res.statusCode, res.body).toBe(200);
    planId = res.json().id;
  });

  it("the offer on each chain names that chain's payout; the API relay refuses the account's payout on B and sends nothing", async () => {
    expect((await offerOn(a.chainId)).terms.merchant).toBe(accountPayout);
    const onB = await offerOn(b.chainId);
    expect(onB.terms.merchant).toBe(chainBPayout);

    const subscriber = privateKeyToAccount(generatePrivateKey());
    const toAccount = await signOn(b, { ...onB, terms: { ...onB.terms, merchant: accountPayout } }, subscriber);
    const sentBefore = await sentOn(b.chainId);
    const refused = await api(
      'POST',
      '/v1/relay/subscriptions',
      { chainId: b.chainId, ...toAccount },
      { 'idempotency-key': `acct-on-b-${Date.now()}` },
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'invalid_request', param: 'terms.merchant' });
    expect(refused.json().error.message).toContain(`payout address on chain ${b.chainId}`);
    expect(await sentOn(b.chainId)).toBe(sentBefore);
  });

  it("enrolled on chain B from the hosted page: recorded with chain B, its first charge paid to B's payout on B", async () => {
    const subscriber = privateKeyToAccount(generatePrivateKey());
    await transferOn(b, subscriber.address, 10_000_000n);
    const before = await Promise.all([balanceOn(b, chainBPayout), balanceOn(b, accountPayout), balanceOn(a, accountPayout)]);
    const body = await signOn(b, await offerOn(b.chainId), subscriber);
    const posted = await stack.t.app.inject({
      method: 'POST',
      url: `/checkout/plans/${planId}/enrol`,
      payload: { chainId: b.chainId, ...body },
    });
    expect(posted.statusCode, posted.body).toBe(200);

    const [subscription] = await until(
      () =>
        stack.db.sql<{ id: string; chainId: string; planId: string }[]>`
          select id, chain_id::text as "chainId", plan_id as "planId" from subscriptions where subscriber_address = ${subscriber.address.toLowerCase()}`,
      (rows) => rows.length > 0,
      "the subscription recorded by chain B's indexer",
    );
    expect(subscription).toMatchObject({ chainId: String(b.chainId), planId });
    const charge = await until(
      async () =>
        (
          await stack.db.sql<{ status: string; chainId: string }[]>`
            select status, chain_id::text as "chainId" from subscription_charges where subscription_id = ${subscription!.id} and period_index = 0`
        )[0],
      (c) => c?.status === 'succeeded' || c?.status === 'failed',
      'period 0 charged',
    );
    expect(charge).toEqual({ status: 'succeeded', chainId: String(b.chainId) });
    expect(await Promise.all([balanceOn(b, chainBPayout), balanceOn(b, accountPayout), balanceOn(a, accountPayout)])).toEqual([
      before[0]! + 2_000_000n,
      before[1],
      before[2],
    ]);
    expect(await balanceOn(b, subscriber.address)).toBe(8_000_000n);
  });
});
