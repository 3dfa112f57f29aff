// The facilitator on every chain of the mode (issue 39, item 6): /supported lists each network, and a
// payment is verified and settled on the chain its requirements name, with the official x402 client.
import type { PaymentRequirements } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSettings } from '../../src/chain/config.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type ContractDomain, readDomain } from '../../src/chain/typed-data.js';
import { setPayoutAddress } from '../../src/merchants/repo.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { seedMerchant, type SeededMerchant, type TestApp } from '../support/app.js';
import { startPaymentsStack, type PaymentsStack } from '../support/payments-stack.js';
import { exactRequirements, facilitatorFor, signedPayment } from '../support/x402.js';

const AMOUNT = 1_500_000n;
const payout = DEV_ACCOUNTS.merchant.address;
const buyer = privateKeyToAccount(DEV_ACCOUNTS.payers[1]!.privateKey);

let stack: PaymentsStack;
let a: ChainSettings;
let b: ChainSettings;
let t: TestApp;
let merchant: SeededMerchant;

const clientOf = (s: ChainSettings) => (s === b ? stack.second!.pub : stack.pub);
const balanceOn = (s: ChainSettings) =>
  clientOf(s).readContract({ address: s.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [payout] });

beforeAll(async () => {
  stack = await startPaymentsStack({ listen: true, secondChain: true });
  ({ settings: a, t } = stack);
  b = stack.second!.settings;
  merchant = await seedMerchant(stack.db.sql, 'x402 on two chains');
  await setPayoutAddress(stack.db.sql, merchant.merchantId, payout);
}, 180_000);
afterAll(async () => stack?.stop());

describe('x402 on every chain of the mode', () => {
  it('lists every settling network in /supported, with the one relayer for the family', async () => {
    const supported = await facilitatorFor(t, merchant.secretKey).getSupported();
    expect(supported.kinds.map((kind) => kind.network)).toEqual([`eip155:${a.chainId}`, `eip155:${b.chainId}`]);
    expect(supported.signers['eip155:*']).toEqual([DEV_ACCOUNTS.relayer.address]);
  });

  it('verifies and settles a payment on the second chain, where the money lands', async () => {
    const domain: ContractDomain = await readDomain(clientOf(b), b.token);
    const requirements = exactRequirements(`eip155:${b.chainId}`, b.token, domain, payout, AMOUNT);
    const now = (await clientOf(b).getBlock()).timestamp;
    const payment = await signedPayment(requirements, domain, buyer, now);
    const [beforeA, beforeB] = await Promise.all([balanceOn(a), balanceOn(b)]);

    const facilitator = facilitatorFor(t, merchant.secretKey);
    expect(await facilitator.verify(payment, requirements)).toMatchObject({ isValid: true, payer: buyer.address });
    const settled = await facilitator.settle(payment, requirements);
    expect(settled).toMatchObject({ success: true, network: `eip155:${b.chainId}`, payer: buyer.address });

    const receipt = await clientOf(b).getTransactionReceipt({ hash: settled.transaction as `0x${string}` });
    expect(receipt.status).toBe('success');
    expect(await balanceOn(b)).toBe(beforeB + AMOUNT);
    expect(await balanceOn(a)).toBe(beforeA);
  });

  it('refuses a network the mode does not have, naming the ones it settles', async () => {
    const domain = await readDomain(clientOf(a), a.token);
    const requirements: PaymentRequirements = exactRequirements('eip155:8453', a.token, domain, payout, AMOUNT);
    const payment = await signedPayment(requirements, domain, buyer, (await clientOf(a).getBlock()).timestamp);
    const verdict = await facilitatorFor(t, merchant.secretKey).verify(payment, requirements);
    expect(verdict).toMatchObject({ isValid: false, invalidReason: 'invalid_network' });
    expect(verdict.invalidMessage).toContain(`eip155:${a.chainId}, eip155:${b.chainId}`);
  });
});
