/**
 * SubscriptionManagerV2 on anvil with Circle's USDC: the scenarios of issue #37 that v1 allows.
 *  - arrears: a period is chargeable only inside its charge window, so 11 missed periods of a
 *    10 USDC/month subscription can no longer be pulled in one chargeMany (v1 pulls 120 USDC);
 *  - a hostile token (contracts/HostileToken.sol: burns all gas, or answers with huge return data)
 *    fails its own chargeMany item only; v1 forwards it all the gas and the batch runs out.
 * Each scenario runs against v2 (the fix) and is shown against v1 too (the demonstration), so the
 * file keeps proving the scenario is real.
 */
import {
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type TestClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  keccak256,
  parseEventLogs,
  toHex,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../../src/chain/generated/contracts.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { type ArtifactSet, loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { deployContracts } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { chargeFailureSelector } from '../../src/subscriptions/charge-batch.js';
import { type TermsV2, expectRevert, randomNonce, signEnrolmentV2, signPermit } from './helpers.js';

const USDC = (n: number): bigint => BigInt(Math.round(n * 1e6));
const DAY = 86_400n;
const MONTH = 30n * DAY;

const deployer = privateKeyToAccount(DEV_ACCOUNTS.deployer.privateKey);
const relayer = privateKeyToAccount(DEV_ACCOUNTS.relayer.privateKey);
const minter = privateKeyToAccount(DEV_ACCOUNTS.usdcMasterMinter.privateKey);
const operator = privateKeyToAccount(DEV_ACCOUNTS.operator.privateKey);
const merchant = privateKeyToAccount(DEV_ACCOUNTS.merchant.privateKey);

/** The two versions under one shape: v1 ignores `chargeWindow` in the terms (it has no such field). */
type Manager = { version: 'v1' | 'v2'; address: Address; abi: Abi };

let anvil: AnvilInstance;
let pub: PublicClient;
let testClient: TestClient;
let artifacts: ArtifactSet;
let token: Address;
let v1: Manager;
let v2: Manager;

function wallet(signer: PrivateKeyAccount) {
  return createWalletClient({ account: signer, chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
}

async function mined(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function deploy(name: string, args: readonly unknown[] = []): Promise<Address> {
  const { abi, bytecode } = artifacts.contracts[name]!;
  const hash = await wallet(deployer).deployContract({ abi, bytecode, args });
  return (await mined(hash)).contractAddress!;
}

const balanceOf = (who: Address): Promise<bigint> =>
  pub.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] });

const terms = (overrides: Partial<TermsV2> = {}): TermsV2 => ({
  token,
  merchant: merchant.address,
  operator: operator.address,
  amount: USDC(10),
  period: MONTH,
  periods: 0,
  trialEnd: 0n,
  chargeWindow: MONTH,
  ...overrides,
});

/** A fresh subscriber with 1000 USDC (and gas) who approves `manager` and enrols itself with `subscribe`. */
async function enrol(manager: Manager, t: TermsV2, label: string): Promise<{ id: bigint; subscriber: PrivateKeyAccount }> {
  const subscriber = privateKeyToAccount(keccak256(toHex(`${label}-${manager.version}-${Date.now()}-${Math.random()}`)));
  await mined(await wallet(deployer).sendTransaction({ to: subscriber.address, value: 10n ** 17n }));
  await mined(
    await wallet(minter).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'mint', args: [subscriber.address, USDC(1000)] }),
  );
  await mined(
    await wallet(subscriber).writeContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: 'approve',
      args: [manager.address, USDC(1000)],
    }),
  );
  const { request, result } = await pub.simulateContract({
    account: subscriber,
    address: manager.address,
    abi: manager.abi,
    functionName: 'subscribe',
    args: [t],
  });
  await mined(await wallet(subscriber).writeContract(request));
  return { id: result as bigint, subscriber };
}

async function advance(seconds: bigint): Promise<void> {
  await testClient.increaseTime({ seconds: Number(seconds) });
  await testClient.mine({ blocks: 1 });
}

beforeAll(async () => {
  artifacts = await loadArtifacts();
  anvil = await startAnvil();
  pub = createPublicClient({ chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  testClient = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
  const deployed = await deployContracts({ rpcUrl: anvil.rpcUrl, deployerKey: DEV_ACCOUNTS.deployer.privateKey, artifacts });
  token = deployed.token;
  v1 = { version: 'v1', address: deployed.subscriptionManager, abi: subscriptionManagerAbi };
  v2 = { version: 'v2', address: await deploy('SubscriptionManagerV2'), abi: subscriptionManagerV2Abi };
}, 180_000);

afterAll(async () => {
  await anvil?.stop();
});

/** Enrols a 10 USDC/month subscription, lets 11 periods pass unpaid, and charges periods 0..11 in one chargeMany. */
async function missElevenPeriodsThenChargeAll(manager: Manager) {
  const { id, subscriber } = await enrol(manager, terms(), 'arrears');
  await advance(11n * MONTH + DAY);
  const periods = Array.from({ length: 12 }, (_, i) => i);
  const before = await balanceOf(merchant.address);
  const { request, result } = await pub.simulateContract({
    account: operator,
    address: manager.address,
    abi: manager.abi,
    functionName: 'chargeMany',
    args: [periods.map(() => id), periods, periods.map(() => USDC(10))],
  });
  await mined(await wallet(operator).writeContract(request));
  return { id, subscriber, reasons: result as readonly Hex[], pulled: (await balanceOf(merchant.address)) - before };
}

/**
 * One chargeMany with a fixed gas limit over [honest, gas-burning token, return-bomb token, honest]:
 * returns the receipt and whether each honest period got charged.
 */
async function chargeBatchWithHostileTokens(manager: Manager) {
  const burner = await deploy('HostileToken', [0, 0n]);
  const bomber = await deploy('HostileToken', [1, 320n * 1024n]);
  const first = await enrol(manager, terms(), 'honest-a');
  const burning = await enrol(manager, terms({ token: burner }), 'burner');
  const bombing = await enrol(manager, terms({ token: bomber }), 'bomber');
  const second = await enrol(manager, terms(), 'honest-b');
  const ids = [first.id, burning.id, bombing.id, second.id];
  const hash = await wallet(operator).writeContract({
    address: manager.address,
    abi: manager.abi,
    functionName: 'chargeMany',
    args: [ids, ids.map(() => 0), ids.map(() => USDC(10))],
    gas: 1_500_000n,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  const isCharged = (id: bigint) =>
    pub.readContract({ address: manager.address, abi: manager.abi, functionName: 'isCharged', args: [id, 0] }) as Promise<boolean>;
  return { receipt, ids, charged: await Promise.all(ids.map(isCharged)) };
}

describe('SubscriptionManagerV2: the charge window', () => {
  it('arrears: of 11 missed periods and the current one, one chargeMany pulls only the current period (10 USDC)', async () => {
    const { id, reasons, pulled } = await missElevenPeriodsThenChargeAll(v2);
    expect(pulled).toBe(USDC(10));
    expect(reasons.slice(0, 11)).toEqual(Array(11).fill(chargeFailureSelector('ChargeWindowClosed')));
    expect(reasons[11]).toBe('0x00000000');
    // A single charge of a missed period is refused with the moment its window closed.
    const start = (await pub.readContract({
      address: v2.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'periodStart',
      args: [id, 3],
    })) as bigint;
    const refused = await expectRevert(
      pub.simulateContract({
        account: operator,
        address: v2.address,
        abi: subscriptionManagerV2Abi,
        functionName: 'charge',
        args: [id, 3, USDC(10)],
      }),
      'ChargeWindowClosed',
    );
    expect(refused.args).toEqual([id, 3, start + MONTH]);
  }, 120_000);

  it('v1 demonstration: the same missed periods are all pulled at once (120 USDC)', async () => {
    const { pulled } = await missElevenPeriodsThenChargeAll(v1);
    expect(pulled).toBe(USDC(120));
  }, 120_000);

  it('a period is chargeable from its start until start + chargeWindow, not a second later', async () => {
    const { id } = await enrol(v2, terms({ chargeWindow: 3n * DAY }), 'window-edge');
    expect(await pub.readContract({ address: v2.address, abi: subscriptionManagerV2Abi, functionName: 'chargeWindow', args: [id] })).toBe(
      3n * DAY,
    );
    const start = (await pub.readContract({
      address: v2.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'periodStart',
      args: [id, 1],
    })) as bigint;
    const chargeAt = (timestamp: bigint) =>
      pub.simulateContract({
        account: operator,
        address: v2.address,
        abi: subscriptionManagerV2Abi,
        functionName: 'charge',
        args: [id, 1, USDC(10)],
        blockOverrides: { time: timestamp },
      });
    await expectRevert(chargeAt(start - 1n), 'PeriodNotStarted');
    await chargeAt(start + 3n * DAY - 1n); // the last second of the window
    await expectRevert(chargeAt(start + 3n * DAY), 'ChargeWindowClosed');
  }, 120_000);

  it('the window is part of the signed terms: a relayed enrolment carries it, and a zero window is refused', async () => {
    const payer = privateKeyToAccount(keccak256(toHex(`signed-${Date.now()}`)));
    await mined(
      await wallet(minter).writeContract({ address: token, abi: fiatTokenAbi, functionName: 'mint', args: [payer.address, USDC(100)] }),
    );
    const deadline = (await pub.getBlock()).timestamp + 3600n;
    const t = terms({ chargeWindow: 5n * DAY });
    const permit = await signPermit(pub, payer, token, { spender: v2.address, value: USDC(100), deadline });
    const auth = await signEnrolmentV2(pub, payer, v2.address, t, { nonce: randomNonce(), deadline });
    // A relayer that widens the window breaks the signature.
    await expectRevert(
      pub.simulateContract({
        account: relayer,
        address: v2.address,
        abi: subscriptionManagerV2Abi,
        functionName: 'subscribeWithPermitFor',
        args: [payer.address, { ...t, chargeWindow: 50n * DAY }, permit, auth],
      }),
      'InvalidEnrolmentSignature',
    );
    const { request, result: id } = await pub.simulateContract({
      account: relayer,
      address: v2.address,
      abi: subscriptionManagerV2Abi,
      functionName: 'subscribeWithPermitFor',
      args: [payer.address, t, permit, auth],
    });
    await mined(await wallet(relayer).writeContract(request));
    expect(await pub.readContract({ address: v2.address, abi: subscriptionManagerV2Abi, functionName: 'chargeWindow', args: [id] })).toBe(
      5n * DAY,
    );
    await expectRevert(
      pub.simulateContract({
        account: payer,
        address: v2.address,
        abi: subscriptionManagerV2Abi,
        functionName: 'subscribe',
        args: [terms({ chargeWindow: 0n })],
      }),
      'ZeroChargeWindow',
    );
  }, 120_000);
});

describe('SubscriptionManagerV2: a hostile token in chargeMany', () => {
  it('a token that burns gas or returns megabytes fails its own item; the honest items are charged within a 1.5M gas limit', async () => {
    const { receipt, ids, charged } = await chargeBatchWithHostileTokens(v2);
    expect(receipt.status).toBe('success');
    expect(charged).toEqual([true, false, false, true]);
    const failed = parseEventLogs({ abi: subscriptionManagerV2Abi, logs: receipt.logs, eventName: 'SubscriptionChargeFailed' });
    expect(failed.map((l) => [l.args.id, l.args.reason])).toEqual([
      [ids[1], chargeFailureSelector('ChargeTransferFailed')],
      [ids[2], chargeFailureSelector('ChargeTransferFailed')],
    ]);
    expect(receipt.gasUsed).toBeLessThan(800_000n);
  }, 180_000);

  it('v1 demonstration: the same batch runs out of gas and charges nobody', async () => {
    const { receipt, charged } = await chargeBatchWithHostileTokens(v1);
    expect(receipt.status).toBe('reverted');
    expect(charged).toEqual([false, false, false, false]);
  }, 180_000);

  it('refuses to start an item it cannot give the token call its cap, rather than fail it', async () => {
    const { id } = await enrol(v2, terms(), 'low-gas');
    await expectRevert(
      pub.simulateContract({
        account: operator,
        address: v2.address,
        abi: subscriptionManagerV2Abi,
        functionName: 'chargeMany',
        args: [[id], [0], [USDC(10)]],
        gas: 150_000n,
      }),
      'BatchGasTooLow',
    );
  }, 120_000);
});
