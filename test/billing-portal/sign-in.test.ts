// Sign-In with Ethereum (EIP-4361) into the customer portal (issue 40, item 4) over the real app, Postgres
// and a private anvil: a good signature opens a portal session of the wallet's customer; a wrong domain,
// a foreign URI, another mode's chain, a reused or expired nonce, an expired message, another wallet's
// signature and a wallet that subscribes to nothing are refused; a smart-contract wallet (ERC-1271) signs in.
import { createWalletClient, getAddress, hashMessage, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/chain/config.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { upsertCustomer } from '../../src/customers/repo.js';
import { newId } from '../../src/ids.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createTestApp, seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { deployErc1271Wallet, inWalletOrder, walletSignature } from '../support/erc1271-wallet.js';
import { startTestChain, type TestChain } from '../support/subscriptions.js';

let db: TestDatabase;
let chain: TestChain;
let t: TestApp;
let merchant: SeededMerchant;
let configurationId: string;
const subscriber = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/billing-portal/api${url}`, payload });

async function addCustomer(wallet: string): Promise<string> {
  return (
    await upsertCustomer(db.sql, {
      id: newId('customer'),
      merchantId: merchant.merchantId,
      livemode: false,
      walletAddress: wallet.toLowerCase(),
      email: null,
    })
  ).id;
}

type Offer = { nonce: string; domain: string; uri: string; chainIds: number[]; merchantName: string };

async function offer(): Promise<Offer> {
  const response = await post('/sign-in/nonce', { configurationId });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function message(o: Offer, address: string, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}): string {
  return createSiweMessage({
    domain: o.domain,
    address: getAddress(address),
    statement: 'Sign in to manage your subscriptions.',
    uri: o.uri,
    version: '1',
    chainId: o.chainIds[0]!,
    nonce: o.nonce,
    issuedAt: new Date(),
    ...overrides,
  });
}

const signIn = (text: string, signature: Hex) => post('/sign-in', { configurationId, message: text, signature });
const signedBy = async (account: PrivateKeyAccount, text: string) => signIn(text, await account.signMessage({ message: text }));

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await startTestChain(db.sql);
  const settings = devChainSettings({ ...chain.deployed, rpcUrl: chain.anvil.rpcUrl, startBlock: chain.deployed.deployBlock });
  const chainConfig: ChainConfig = { test: settings };
  t = await createTestApp(db.sql, { chain: chainConfig, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
  merchant = await seedMerchant(db.sql, 'Acme Cloud');
  const configured = await t.app.inject({
    method: 'POST',
    url: '/v1/billing-portal/configuration',
    headers: { authorization: `Bearer ${merchant.secretKey}` },
    payload: { promotionCodes: false },
  });
  expect(configured.statusCode, configured.body).toBe(200);
  configurationId = configured.json().id;
  await addCustomer(subscriber.address);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await chain?.stop();
  await db?.drop();
});

describe('Sign-In with Ethereum into the portal', () => {
  it("opens a portal session of the wallet's customer, with a nonce good once", async () => {
    const o = await offer();
    expect(o).toMatchObject({
      domain: 'pay.example.test',
      uri: `https://pay.example.test/billing-portal/c/${configurationId}`,
      merchantName: 'Acme Cloud',
    });
    expect(o.chainIds).toEqual([chain.anvil.chainId]);
    const text = message(o, subscriber.address);
    const response = await signedBy(subscriber, text);
    expect(response.statusCode, response.body).toBe(200);
    const { token } = response.json();
    const state = await t.app.inject({ method: 'GET', url: '/billing-portal/api/session', headers: { authorization: `Bearer ${token}` } });
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({
      merchantName: 'Acme Cloud',
      returnUrl: null,
      customer: { walletAddress: subscriber.address.toLowerCase() },
    });

    const again = await signedBy(subscriber, text);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'invalid_request', param: 'message' });
  });

  it('refuses a wrong domain, a foreign URI, another chain, an expired nonce or message, before any session', async () => {
    const sessions = async () => Number((await db.sql<{ n: string }[]>`select count(*) as n from billing_portal_sessions`)[0]!.n);
    const before = await sessions();
    const cases: [string, (o: Offer) => Promise<string>][] = [
      ['wrong domain', async (o) => message(o, subscriber.address, { domain: 'evil.example' })],
      ['foreign uri', async (o) => message(o, subscriber.address, { uri: 'https://evil.example/login' })],
      ['another chain', async (o) => message(o, subscriber.address, { chainId: 1 })],
      ['expired message', async (o) => message(o, subscriber.address, { expirationTime: new Date(Date.now() - 1000) })],
      [
        'expired nonce',
        async (o) => {
          await db.sql`update billing_portal_sign_in_nonces set expires_at = now() - interval '1 second' where nonce = ${o.nonce}`;
          return message(o, subscriber.address);
        },
      ],
      ['unknown nonce', async (o) => message(o, subscriber.address, { nonce: 'a'.repeat(32) })],
    ];
    for (const [what, build] of cases) {
      const response = await signedBy(subscriber, await build(await offer()));
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_request', param: 'message' });
    }
    const garbage = await signIn('hello', '0x1234');
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error.param).toBe('message');
    const unknownPortal = await post('/sign-in/nonce', { configurationId: 'bpc_01J00000000000000000000000' });
    expect(unknownPortal.statusCode).toBe(404);
    expect(await sessions()).toBe(before);
  });

  it("refuses another wallet's signature, and a wallet that subscribes to nothing here", async () => {
    const forged = await signedBy(stranger, message(await offer(), subscriber.address));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe('authentication_error');
    const nobody = await signedBy(stranger, message(await offer(), stranger.address));
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error.code).toBe('not_found');
  });

  it('signs in a smart-contract wallet (ERC-1271) by its owners', async () => {
    const owners = inWalletOrder([
      privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey),
      privateKeyToAccount(DEV_ACCOUNTS.payers[2]!.privateKey),
    ]);
    const funder = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey),
      chain: chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl),
      transport: http(chain.anvil.rpcUrl),
    });
    await chain.mint(funder.account.address, 1_000_000n);
    const contractWallet = await deployErc1271Wallet(chain.pub, funder, owners, 2, chain.deployed.token, 1_000_000n);
    await addCustomer(contractWallet);
    const text = message(await offer(), contractWallet);
    const response = await signIn(text, await walletSignature(owners, hashMessage(text)));
    expect(response.statusCode, response.body).toBe(200);
    const oneOwner = message(await offer(), contractWallet);
    const refused = await signIn(oneOwner, await walletSignature(owners.slice(0, 1), hashMessage(oneOwner)));
    expect(refused.statusCode).toBe(401);
  });
});
