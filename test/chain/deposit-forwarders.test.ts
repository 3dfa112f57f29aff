/**
 * Deposit forwarders v2 (contracts/DepositForwarderV2.sol) on a private anvil with Circle's USDC: a batch
 * sweeps item by item (a blacklisted payout is reported, the other merchants are paid), ETH sent to a
 * deposit address reaches the payout, a clone obeys only its factory, and the gas per swept deposit
 * (issue 37: at most 65k in batches of 10, 100k alone; docs/benchmarks.md).
 */
import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  keccak256,
  parseEther,
  parseEventLogs,
  stringToHex,
  toHex,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../src/chain/deposits/deposit-contracts-v2.js';
import { depositForwarderFactoryV2Abi } from '../../src/chain/generated/contracts.js';
import { depositAddressOf, depositIdOf } from '../../src/chain/deposits/deposit-address.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { deployContracts } from '../../tools/dev/chain/deploy.js';
import { ensureDepositFactoryV2 } from '../../tools/dev/chain/deposit-factory.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { expectRevert } from './helpers.js';

const factory = DEPOSIT_FACTORY_V2_ADDRESS;
const payer = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
const operator = privateKeyToAccount(DEV_ACCOUNTS.operator.privateKey);
const blacklister = privateKeyToAccount(DEV_ACCOUNTS.usdcBlacklister.privateKey);
/** Three merchants' payout addresses (fresh accounts: nothing else pays them). */
const payouts = ['payout-a', 'payout-b', 'payout-c'].map((n) => privateKeyToAccount(keccak256(toHex(n))).address) as [
  Address,
  Address,
  Address,
];

let anvil: AnvilInstance;
let pub: PublicClient;
let token: Address;
let sessionCount = 0;

const wallet = (signer: PrivateKeyAccount) =>
  createWalletClient({ account: signer, chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
const mined = async (hash: Hex) => {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt;
};
const balanceOf = (who: Address) => pub.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/** A new session's deposit address for `payout`, paid `amount` by a plain USDC transfer. */
async function paidDeposit(payout: Address, amount: bigint): Promise<{ sessionId: string; address: Address }> {
  const sessionId = `ps_forwarder_${++sessionCount}`;
  const address = depositAddressOf(factory, sessionId, payout, 2);
  if (amount > 0n)
    await mined(await wallet(payer).writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [address, amount] }));
  return { sessionId, address };
}

async function sweepMany(items: { sessionId: string; payout: Address }[]) {
  const hash = await wallet(operator).writeContract({
    address: factory,
    abi: depositForwarderFactoryV2Abi,
    functionName: 'sweepMany',
    args: [token, items.map((i) => depositIdOf(i.sessionId)), items.map((i) => i.payout)],
  });
  const receipt = await mined(hash);
  return { receipt, logs: parseEventLogs({ abi: depositForwarderFactoryV2Abi, logs: receipt.logs }) };
}

const setBlacklisted = async (who: Address, on: boolean) =>
  mined(
    await wallet(blacklister).writeContract({
      address: token,
      abi: fiatTokenAbi,
      functionName: on ? 'blacklist' : 'unBlacklist',
      args: [who],
    }),
  );

beforeAll(async () => {
  const artifacts = await loadArtifacts();
  anvil = await startAnvil();
  pub = createPublicClient({ chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  ({ token } = await deployContracts({
    rpcUrl: anvil.rpcUrl,
    deployerKey: DEV_ACCOUNTS.deployer.privateKey,
    payers: [payer.address],
    artifacts,
  }));
  await ensureDepositFactoryV2(anvil.rpcUrl);
}, 180_000);
afterAll(async () => anvil?.stop());

describe('deposit forwarders v2', () => {
  it('the factory computes the addresses computed off-chain', async () => {
    const payout = payouts[0];
    const onChain = await pub.readContract({
      address: factory,
      abi: depositForwarderFactoryV2Abi,
      functionName: 'forwarderAddress',
      args: [depositIdOf('ps_x'), payout],
    });
    expect(onChain).toBe(depositAddressOf(factory, 'ps_x', payout, 2));
  });

  it('3 merchants, one payout blacklisted: the other two are swept, the third reported; swept after unblacklisting', async () => {
    const [a, b, c] = payouts;
    const deposits = [await paidDeposit(a, 1_000_000n), await paidDeposit(b, 2_000_000n), await paidDeposit(c, 3_000_000n)];
    const items = deposits.map((d, i) => ({ sessionId: d.sessionId, payout: payouts[i]! }));
    await setBlacklisted(b, true);
    const before = await Promise.all(payouts.map(balanceOf));

    const { logs } = await sweepMany(items);
    expect((await balanceOf(a)) - before[0]!).toBe(1_000_000n);
    expect((await balanceOf(c)) - before[2]!).toBe(3_000_000n);
    expect(await balanceOf(b)).toBe(before[1]);
    expect(await balanceOf(deposits[1]!.address)).toBe(2_000_000n);
    const failed = logs.filter((l) => l.eventName === 'SweepFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.args).toMatchObject({ depositId: depositIdOf(deposits[1]!.sessionId), payout: b, token });
    // USDC's own revert string, so the off-chain side can name the refusal.
    expect((failed[0]!.args as { reason: Hex }).reason).toContain(stringToHex('Blacklistable: account is blacklisted').slice(2));
    expect(logs.filter((l) => l.eventName === 'Swept').map((l) => (l.args as { payout: Address }).payout)).toEqual([a, c]);

    await setBlacklisted(b, false);
    const again = await sweepMany([items[1]!]);
    expect(again.logs.map((l) => l.eventName)).toEqual(['Swept']);
    expect((await balanceOf(b)) - before[1]!).toBe(2_000_000n);
    expect(await balanceOf(deposits[1]!.address)).toBe(0n);
  });

  it('a zero payout is reported, not a revert of the batch', async () => {
    const zero = '0x0000000000000000000000000000000000000000' as Address;
    const good = await paidDeposit(payouts[0], 10n);
    const bad = await paidDeposit(zero, 10n);
    const { logs } = await sweepMany([
      { sessionId: bad.sessionId, payout: zero },
      { sessionId: good.sessionId, payout: payouts[0] },
    ]);
    expect(logs.map((l) => l.eventName)).toEqual(['SweepFailed', 'Swept']);
    expect(await balanceOf(bad.address)).toBe(10n);
  });

  it('ETH sent to a deposit address reaches the payout, before and after its clone is deployed', async () => {
    const payout = payouts[2];
    const deposit = await paidDeposit(payout, 5n);
    const sendEth = async (value: bigint) => mined(await wallet(payer).sendTransaction({ to: deposit.address, value }));
    await sendEth(parseEther('1'));
    const before = await pub.getBalance({ address: payout });
    await sweepMany([{ sessionId: deposit.sessionId, payout }]);
    expect((await pub.getBalance({ address: payout })) - before).toBe(parseEther('1'));
    // Deployed now: the clone accepts ETH (a plain transfer, as a wallet sends it) and the next sweep forwards it.
    await sendEth(parseEther('0.5'));
    await sweepMany([{ sessionId: deposit.sessionId, payout }]);
    expect((await pub.getBalance({ address: payout })) - before).toBe(parseEther('1.5'));
    expect(await pub.getBalance({ address: deposit.address })).toBe(0n);
  });

  it('a clone obeys only its factory', async () => {
    const deposit = await paidDeposit(payouts[0], 7n);
    await sweepMany([{ sessionId: deposit.sessionId, payout: payouts[0] }]);
    const forwarderAbi = (await loadArtifacts()).contracts.DepositForwarderV2!.abi;
    await expectRevert(
      pub.simulateContract({
        account: payer,
        address: deposit.address,
        abi: forwarderAbi,
        functionName: 'sweep',
        args: [token, payer.address],
      }),
      'OnlyFactory',
    );
  });

  it('gas per swept deposit: at most 65k in a batch of 10 and 100k alone (clone deploy + sweep)', async () => {
    const payout = payouts[0]; // holds USDC already, as a merchant's payout does
    const batch = [];
    for (let i = 0; i < 10; i++) batch.push({ ...(await paidDeposit(payout, 1_000_000n)), payout });
    const ten = await sweepMany(batch);
    const alone = await paidDeposit(payout, 1_000_000n);
    const one = await sweepMany([{ ...alone, payout }]);
    const perDepositOfTen = ten.receipt.gasUsed / 10n;
    console.log(
      `gas per swept deposit: ${perDepositOfTen} in a batch of 10 (${ten.receipt.gasUsed} per sweep), ${one.receipt.gasUsed} alone`,
    );
    expect(ten.logs.filter((l) => l.eventName === 'Swept')).toHaveLength(10);
    expect(perDepositOfTen).toBeLessThanOrEqual(65_000n);
    expect(one.receipt.gasUsed).toBeLessThanOrEqual(100_000n);
  });
});
