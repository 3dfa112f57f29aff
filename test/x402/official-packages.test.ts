// x402 v2 with the official packages, unmodified: a seller built with
// @x402/express whose facilitator client points at our /v1/x402 endpoints
// (with the merchant's secret key), and a buyer using @x402/fetch with
// @x402/evm's exact scheme on eip155:31337. Real api, worker (Temporal dev
// server), Postgres and a private anvil.
import { describeRefusal } from '../../src/chain/refusals.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { type Address, type PublicClient, createPublicClient, createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { nextBlockTime } from '../../src/chain/chain-time.js';
import type { ChainSettings } from '../../src/chain/config.js';
import { type Authorization, type ContractDomain, randomNonce, readDomain, signAuthorization } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { settingsOf, startPrivateChain } from '../support/chain.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startDevServerWorker, type DevServerWorker } from '../support/temporal.js';

const PRICE = '10000'; // 0.01 USDC
const payout = DEV_ACCOUNTS.merchant.address;
const [buyer, secondBuyer, thirdBuyer] = DEV_ACCOUNTS.payers.map((p) => privateKeyToAccount(p.privateKey)) as [
  PrivateKeyAccount,
  PrivateKeyAccount,
  PrivateKeyAccount,
];

let chain: DevChain;
let settings: ChainSettings;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;
let domain: ContractDomain;
let network: `${string}:${string}`;
let facilitatorUrl: string;
const sellers: Server[] = [];

beforeAll(async () => {
  chain = await startPrivateChain();
  settings = settingsOf(chain.info);
  token = chain.info.token;
  network = `eip155:${chain.info.chainId}`;
  pub = createPublicClient({ chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
  domain = await readDomain(pub, token);
  db = await createTestDatabase();
  temporal = await startDevServerWorker(db.sql, { chain: { test: settings } });
  t = await createTestApp(db.sql, { temporal: temporal.client, taskQueue: temporal.taskQueue, chain: { test: settings } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  facilitatorUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/x402`;
  merchant = await seedMerchant(db.sql);
  await db.sql`update merchants set payout_address = ${payout} where id = ${merchant.merchantId}`;
});
afterAll(async () => {
  await Promise.all(sellers.map((s) => new Promise((resolve) => s.close(resolve))));
  await t?.close();
  await temporal?.stop();
  await db?.drop();
  await chain?.stop();
});

/** The official facilitator client, with the merchant's secret key on every path. */
function facilitator(key = merchant.secretKey): HTTPFacilitatorClient {
  return new HTTPFacilitatorClient({
    url: facilitatorUrl,
    createAuthHeaders: async () => {
      const headers = { Authorization: `Bearer ${key}` };
      return { verify: headers, settle: headers, supported: headers };
    },
  });
}

/** A seller of GET /report built with @x402/express, paid through our facilitator. */
async function startSeller(payTo: Address = payout): Promise<string> {
  const server = new x402ResourceServer(facilitator()).register(network, new ExactEvmServerScheme());
  const app = express();
  app.use(
    paymentMiddleware(
      {
        'GET /report': {
          accepts: {
            scheme: 'exact',
            network,
            payTo,
            price: { amount: PRICE, asset: token, extra: { name: domain.name, version: domain.version } },
            maxTimeoutSeconds: 300,
          },
          description: 'The quarterly report',
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  app.get('/report', (_req, res) => {
    res.json({ report: 'revenue up' });
  });
  const listening = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  sellers.push(listening);
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/report`;
}

/** A buyer's fetch: the exact EVM scheme on the test chain, allowed to spend our USDC (not one of x402's default assets) up to the price. */
function buyerFetch(account: PrivateKeyAccount) {
  const client = x402Client.fromConfig({
    schemes: [{ network, client: new ExactEvmScheme(account) }],
    spendControls: { allowedAssets: [{ network, asset: token, maxAmountPerPayment: PRICE }] },
  });
  return wrapFetchWithPayment(fetch, client);
}

const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

/** What the seller asks for (the first entry of its 402). */
async function requirementsOf(url: string): Promise<{ requirements: PaymentRequirements; resource: PaymentPayload['resource'] }> {
  const res = await fetch(url);
  expect(res.status).toBe(402);
  const required = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
  return { requirements: required.accepts[0]!, resource: required.resource };
}

/** A payment for `requirements` signed by hand, to build the refusals the official client never makes. */
async function handSigned(
  requirements: PaymentRequirements,
  resource: PaymentPayload['resource'],
  signer: PrivateKeyAccount,
  overrides: Partial<Authorization> = {},
  signWith: PrivateKeyAccount = signer,
): Promise<PaymentPayload> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const message: Authorization = {
    from: signer.address,
    to: requirements.payTo as Address,
    value: BigInt(requirements.amount),
    validAfter: 0n,
    validBefore: now + 300n,
    nonce: randomNonce(),
    ...overrides,
  };
  const signature = await signAuthorization(signWith, domain, 'TransferWithAuthorization', message);
  return {
    x402Version: 2,
    resource,
    accepted: requirements,
    payload: {
      signature,
      authorization: {
        from: message.from,
        to: message.to,
        value: message.value.toString(),
        validAfter: message.validAfter.toString(),
        validBefore: message.validBefore.toString(),
        nonce: message.nonce,
      },
    },
  };
}

/** The seller's answer to a request paid with `payment`: its status, and the reason it names when it refuses. */
async function payWith(
  url: string,
  payment: PaymentPayload,
): Promise<{ status: number; reason?: string; settled?: ReturnType<typeof decodePaymentResponseHeader> }> {
  const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) } });
  const required = res.headers.get('PAYMENT-REQUIRED');
  const response = res.headers.get('PAYMENT-RESPONSE');
  return {
    status: res.status,
    ...(required ? { reason: decodePaymentRequiredHeader(required).error } : {}),
    ...(response ? { settled: decodePaymentResponseHeader(response) } : {}),
  };
}

async function sessionOfTransaction(transaction: string) {
  const [row] = await db.sql<{ id: string }[]>`
    select x.payment_session_id as id from x402_payments x join relay_submissions r on r.id = x.relay_submission_id
    where r.transaction_hash = ${transaction}`;
  return row?.id;
}

async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('x402 through the official packages', () => {
  it('answers supported with exact on the test chain and the relayer as signer', async () => {
    const supported = await facilitator().getSupported();
    expect(supported.kinds).toEqual([{ x402Version: 2, scheme: 'exact', network }]);
    expect(supported.signers['eip155:*']).toEqual([DEV_ACCOUNTS.relayer.address]);
  });

  let paidUrl: string;
  let paidTransaction: string;

  it('sells a resource: the buyer gets 200 and a PAYMENT-RESPONSE naming the transaction, and the balances move once', async () => {
    paidUrl = await startSeller();
    const [buyerBefore, payoutBefore] = await Promise.all([balanceOf(buyer.address), balanceOf(payout)]);
    const res = await buyerFetch(buyer)(paidUrl);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ report: 'revenue up' });
    const settled = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settled).toMatchObject({ success: true, network, payer: buyer.address });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    paidTransaction = settled.transaction;
    const receipt = await pub.getTransactionReceipt({ hash: settled.transaction as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(buyer.address)).toBe(buyerBefore - BigInt(PRICE));
    expect(await balanceOf(payout)).toBe(payoutBefore + BigInt(PRICE));
  });

  it('records the payment as a completed payment session with its x402 fields, and payment.completed names the resource', async () => {
    const sessionId = (await sessionOfTransaction(paidTransaction))!;
    const session = await eventually(async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/payment-sessions/${sessionId}`,
        headers: { authorization: `Bearer ${merchant.secretKey}` },
      });
      const body = res.json();
      return body.status === 'completed' ? body : undefined;
    });
    expect(session).toMatchObject({
      object: 'payment_session',
      amount: PRICE,
      payTo: payout,
      payer: buyer.address,
      transactionHash: paidTransaction,
      x402: {
        scheme: 'exact',
        network,
        payer: buyer.address,
        transaction: paidTransaction,
        resource: { url: paidUrl, description: 'The quarterly report', mimeType: 'application/json' },
      },
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/payment-sessions',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
    });
    expect(list.json().data.map((s: { id: string }) => s.id)).toContain(sessionId);
    const [event] = await db.sql<{ data: { object: { id: string; x402: { resource: { url: string; description: string } } } } }[]>`
      select data from events where type = 'payment.completed' and data->'object'->>'id' = ${sessionId}`;
    expect(event!.data.object.x402.resource).toMatchObject({ url: paidUrl, description: 'The quarterly report' });
  });

  it('refuses the same payment replayed: 402, and nothing moves', async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    // The replay: the very header the buyer paid with, read back from our records.
    const [row] = await db.sql<
      { call: { signature: string; from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string } }[]
    >`
      select call from relay_submissions where transaction_hash = ${paidTransaction}`;
    const { signature, from, to, value, validAfter, validBefore, nonce } = row!.call;
    const replay: PaymentPayload = {
      x402Version: 2,
      resource,
      accepted: requirements,
      payload: { signature, authorization: { from, to, value, validAfter, validBefore, nonce } },
    };
    const before = await balanceOf(buyer.address);
    const answer = await payWith(paidUrl, replay);
    expect(answer.status).toBe(402);
    expect(answer.reason).toBe('invalid_exact_evm_nonce_already_used');
    expect(await balanceOf(buyer.address)).toBe(before);
  });

  it("names each refusal with the reference facilitator's invalidReason", async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    const chainNow = (await pub.getBlock()).timestamp;
    const broke = privateKeyToAccount(generatePrivateKey());
    const cases: [string, Promise<PaymentPayload>, string][] = [
      [
        'too little',
        handSigned(requirements, resource, secondBuyer, { value: BigInt(PRICE) - 1n }),
        'invalid_exact_evm_payload_authorization_value_mismatch',
      ],
      [
        'expired',
        handSigned(requirements, resource, secondBuyer, { validBefore: chainNow - 1n }),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'wrong recipient',
        handSigned(requirements, resource, secondBuyer, { to: DEV_ACCOUNTS.operator.address }),
        'invalid_exact_evm_recipient_mismatch',
      ],
      ['insufficient balance', handSigned(requirements, resource, broke), 'invalid_exact_evm_insufficient_balance'],
      ['bad signature', handSigned(requirements, resource, secondBuyer, {}, thirdBuyer), 'invalid_exact_evm_signature'],
    ];
    const before = await balanceOf(secondBuyer.address);
    for (const [name, payment, reason] of cases) {
      const paid = await payment;
      // Through the seller: the buyer sees 402 with the reason.
      expect({ name, ...(await payWith(paidUrl, paid)) }).toMatchObject({ name, status: 402, reason });
      // And from the facilitator directly, through the official client.
      expect({ name, ...(await facilitator().verify(paid, requirements)) }).toMatchObject({ name, isValid: false, invalidReason: reason });
    }
    expect(await balanceOf(secondBuyer.address)).toBe(before);
  });

  // Issue 36 item 7: the reference facilitator requires validBefore >= now + 6 s (the time a settlement needs).
  it('refuses an authorization that expires sooner than a settlement needs (validBefore < chain time + 6 s), and nothing moves', async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    const before = await balanceOf(secondBuyer.address);
    // Still valid for a few seconds (the old check, validBefore > now, let it through), but not for 6.
    const payment = await handSigned(requirements, resource, secondBuyer, {
      validBefore: (await nextBlockTime(pub, { maxAgeMs: 0 })) + 4n,
    });
    const verdict = await facilitator().verify(payment, requirements);
    expect(verdict).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_before' });
    expect(verdict.invalidMessage).toContain('at least 6 s after the chain time');
    const settled = await facilitator().settle(payment, requirements);
    expect(settled).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_payload_authorization_valid_before', transaction: '' });
    expect(await balanceOf(secondBuyer.address)).toBe(before);
    expect(await db.sql`select 1 from x402_payments where payer = ${secondBuyer.address.toLowerCase()}`).toHaveLength(0);
  });

  // Issue 36 item 7: with an Idempotency-Key the request runs in one transaction; the settlement's rows must
  // commit before its relay workflow starts (and before the answer waits for it).
  it('settles a payment sent with an Idempotency-Key: included and answered within the wait, and replayed for the same key', async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    const payment = await handSigned(requirements, resource, buyer);
    const [buyerBefore, payoutBefore] = await Promise.all([balanceOf(buyer.address), balanceOf(payout)]);
    const key = `settle-${Date.now()}`;
    const settle = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/x402/settle',
        headers: { authorization: `Bearer ${merchant.secretKey}`, 'idempotency-key': key },
        payload: { x402Version: 2, paymentPayload: payment, paymentRequirements: requirements },
      });
    const first = await settle();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, network, payer: buyer.address });
    expect(await balanceOf(buyer.address)).toBe(buyerBefore - BigInt(PRICE));
    expect(await balanceOf(payout)).toBe(payoutBefore + BigInt(PRICE));
    const again = await settle();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().transaction).toBe(first.json().transaction);
  }, 120_000);

  it("refuses a seller whose payTo is not the merchant's payout address", async () => {
    const url = await startSeller(DEV_ACCOUNTS.operator.address);
    const res = await buyerFetch(thirdBuyer)(url);
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toBe('invalid_exact_evm_recipient_mismatch');
  });

  it('settles one authorization once when it is settled twice at the same time, and again later: same transaction', async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    const payment = await handSigned(requirements, resource, thirdBuyer);
    const [buyerBefore, payoutBefore] = await Promise.all([balanceOf(thirdBuyer.address), balanceOf(payout)]);
    const [a, b] = await Promise.all([facilitator().settle(payment, requirements), facilitator().settle(payment, requirements)]);
    expect(a).toMatchObject({ success: true, network, payer: thirdBuyer.address });
    expect(b.transaction).toBe(a.transaction);
    expect(b.success).toBe(true);
    const again = await facilitator().settle(payment, requirements);
    expect(again).toMatchObject({ success: true, transaction: a.transaction });
    expect(await balanceOf(thirdBuyer.address)).toBe(buyerBefore - BigInt(PRICE));
    expect(await balanceOf(payout)).toBe(payoutBefore + BigInt(PRICE));
    const [count] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from x402_payments where payer = ${thirdBuyer.address.toLowerCase()}`;
    expect(count!.n).toBe(1);
  });

  it("refuses a blacklisted payer and a paused token (the simulation), with the token's revert in the message", async () => {
    const { requirements, resource } = await requirementsOf(paidUrl);
    const as = (key: `0x${string}`) =>
      createWalletClient({
        account: privateKeyToAccount(key),
        chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl),
        transport: http(chain.info.rpcUrl),
      });
    const mined = async (hash: `0x${string}`) => expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success');
    const blacklister = as(DEV_ACCOUNTS.usdcBlacklister.privateKey);
    const pauser = as(DEV_ACCOUNTS.usdcPauser.privateKey);

    await mined(
      await blacklister.writeContract({ address: token, abi: fiatTokenAbi, functionName: 'blacklist', args: [secondBuyer.address] }),
    );
    try {
      const verdict = await facilitator().verify(await handSigned(requirements, resource, secondBuyer), requirements);
      expect(verdict).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_transaction_simulation_failed' });
      // The token's revert, named (src/chain/refusals.ts): blacklisted side unknown at verify time.
      expect(verdict.invalidMessage).toContain(describeRefusal('account_blacklisted'));
    } finally {
      await mined(
        await blacklister.writeContract({ address: token, abi: fiatTokenAbi, functionName: 'unBlacklist', args: [secondBuyer.address] }),
      );
    }

    await mined(await pauser.writeContract({ address: token, abi: fiatTokenAbi, functionName: 'pause' }));
    try {
      const payment = await handSigned(requirements, resource, secondBuyer);
      expect(await payWith(paidUrl, payment)).toMatchObject({ status: 402, reason: 'invalid_exact_evm_transaction_simulation_failed' });
      const settled = await facilitator().settle(payment, requirements);
      expect(settled).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_transaction_simulation_failed', transaction: '' });
      expect(settled.errorMessage).toContain(describeRefusal('token_paused'));
    } finally {
      await mined(await pauser.writeContract({ address: token, abi: fiatTokenAbi, functionName: 'unpause' }));
    }
  });

  it('answers a body that is not an x402 request with the error envelope, and a key without the scope with permission_denied', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/x402/verify',
      headers: { authorization: `Bearer ${merchant.secretKey}` },
      payload: { x402Version: 2 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request' });
    const readOnly = await merchant.keyWithScopes(['relay_read']);
    const denied = await t.app.inject({
      method: 'POST',
      url: '/v1/x402/settle',
      headers: { authorization: `Bearer ${readOnly}` },
      payload: {},
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('permission_denied');
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/x402/supported' });
    expect(anonymous.statusCode).toBe(401);
  });
});
