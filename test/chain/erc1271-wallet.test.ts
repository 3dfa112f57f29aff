// A smart-contract wallet pays a payment session through the relay, on Circle's USDC 2.2 (private
// anvil, the relay workflow on the Temporal dev server). The wallet is the project's own ERC-1271
// contract (contracts/Erc1271Wallet.sol): USDC's SignatureChecker asks it whether the signature is
// its own. A one-owner wallet signs 65 bytes (sent through the (v, r, s) overload), a two-owner
// wallet 130 bytes (sent through `bytes signature`).
import { type Address, type PublicClient, createWalletClient, decodeFunctionData, hashTypedData, http } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type Authorization, EIP3009_TYPES, randomNonce, readDomain } from '../../src/chain/typed-data.js';
import type { DevChain } from '../../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { relayWorkflowId } from '../../workflows/relay-submission.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/db.js';
import { deployErc1271Wallet, inWalletOrder, walletSignature } from '../support/erc1271-wallet.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import type { DevServerWorker } from '../support/temporal.js';

let stack: PaymentsStack;
let chain: DevChain;
let db: TestDatabase;
let temporal: DevServerWorker;
let t: TestApp;
let merchant: SeededMerchant;
let pub: PublicClient;
let token: Address;

const payout = DEV_ACCOUNTS.merchant.address;
const funder = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const owners = inWalletOrder(DEV_ACCOUNTS.payers.slice(1, 4).map((p) => privateKeyToAccount(p.privateKey)));
const AMOUNT = 3_000_000n;
let keyCounter = 0;
const newKey = () => `erc1271-${Date.now()}-${keyCounter++}`;

beforeAll(async () => {
  stack = await startPaymentsStack({ pollingIntervalMs: 100 });
  ({ chain, pub, db, temporal, t } = stack);
  token = chain.info.token;
  merchant = await seedMerchant(db.sql, 'Contract wallet merchant');
  await db.sql`update merchants set payout_address = ${payout} where id = ${merchant.merchantId}`;
}, 120_000);
afterAll(async () => stack?.stop());

const walletClientOf = (account: PrivateKeyAccount) =>
  createWalletClient({ account, chain: chainDefinition(chain.info.chainId, chain.info.rpcUrl), transport: http(chain.info.rpcUrl) });
const balanceOf = (who: Address) => pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });
const auth = () => ({ authorization: `Bearer ${merchant.secretKey}` });

const deployWallet = (walletOwners: PrivateKeyAccount[], threshold: number) =>
  deployErc1271Wallet(pub, walletClientOf(funder), walletOwners, threshold, token, 10n * AMOUNT);

/** The wallet's signature of a TransferWithAuthorization: each signer's raw ECDSA signature of the EIP-712 digest, concatenated. */
async function walletAuthorization(wallet: Address, signers: PrivateKeyAccount[], to: Address) {
  const now = (await pub.getBlock()).timestamp;
  const message: Authorization = { from: wallet, to, value: AMOUNT, validAfter: now - 60n, validBefore: now + 3600n, nonce: randomNonce() };
  const digest = hashTypedData({
    domain: await readDomain(pub, token),
    types: EIP3009_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
  const signature = await walletSignature(signers, digest);
  return {
    authorization: {
      from: message.from,
      to: message.to,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
    signature,
  };
}

async function openSession(): Promise<{ id: string; payTo: Address }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/payment-sessions', headers: auth(), payload: { amount: AMOUNT.toString() } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const relayPayment = (payload: object, key: string) =>
  t.app.inject({ method: 'POST', url: '/v1/relay/payments', headers: { ...auth(), 'idempotency-key': key }, payload });

async function settled(key: string) {
  await temporal.client.workflow
    .getHandle(relayWorkflowId({ merchantId: merchant.merchantId, livemode: false, idempotencyKey: key }))
    .result();
  return (await t.app.inject({ method: 'GET', url: `/v1/relay/submissions/${key}`, headers: auth() })).json();
}

describe('an ERC-1271 contract wallet pays a payment session through the relay', () => {
  it.each([
    ['a one-owner wallet, 65-byte signature: the (v, r, s) overload', 1, 65, 's'],
    ['a two-owner wallet, 130-byte signature: the bytes overload', 2, 130, 'signature'],
  ] as const)(
    '%s',
    async (_label, threshold, signatureBytes, lastInput) => {
      const walletOwners = owners.slice(0, threshold);
      const wallet = await deployWallet(walletOwners, threshold);
      const session = await openSession();
      const body = await walletAuthorization(wallet, walletOwners, session.payTo);
      expect((body.signature.length - 2) / 2).toBe(signatureBytes);
      const [walletBefore, payToBefore] = [await balanceOf(wallet), await balanceOf(session.payTo)];

      const key = newKey();
      const res = await relayPayment({ ...body, paymentSessionId: session.id }, key);
      expect(res.statusCode, res.body).toBe(200);
      const submission = await settled(key);
      expect(submission.status, JSON.stringify(submission)).toBe('confirmed');
      expect(await balanceOf(wallet)).toBe(walletBefore - AMOUNT);
      expect(await balanceOf(session.payTo)).toBe(payToBefore + AMOUNT);

      // The token was called through the overload the signature's length picks (its last parameter: `s` of (v, r, s), or `signature`).
      const sent = await pub.getTransaction({ hash: submission.transactionHash });
      const call = decodeFunctionData({ abi: fiatTokenAbi, data: sent.input });
      expect(call.functionName).toBe('transferWithAuthorization');
      const inputs = (fiatTokenAbi as readonly { type: string; name?: string; inputs?: readonly { name: string }[] }[]).find(
        (item) => item.type === 'function' && item.name === 'transferWithAuthorization' && item.inputs?.length === call.args!.length,
      )!.inputs!;
      expect(inputs[inputs.length - 1]!.name).toBe(lastInput);

      const paid = await (async () => {
        for (let i = 0; i < 300; i++) {
          const s = (await t.app.inject({ method: 'GET', url: `/v1/payment-sessions/${session.id}`, headers: auth() })).json();
          if (s.status === 'completed') return s;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('the payment session was not completed');
      })();
      expect(paid.payer.toLowerCase()).toBe(wallet.toLowerCase());
    },
    120_000,
  );

  it('refuses before sending a signature the wallet does not accept (one owner of a two-owner wallet)', async () => {
    const wallet = await deployWallet(owners.slice(0, 2), 2);
    const session = await openSession();
    const body = await walletAuthorization(wallet, owners.slice(0, 1), session.payTo);
    const relayerNonce = await pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address });
    const res = await relayPayment({ ...body, paymentSessionId: session.id }, newKey());
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', param: 'signature' });
    expect(await pub.getTransactionCount({ address: DEV_ACCOUNTS.relayer.address })).toBe(relayerNonce);
    expect((await db.sql<{ n: number }[]>`select count(*)::int as n from relay_submissions`)[0]!.n).toBe(2);
  }, 120_000);
});
