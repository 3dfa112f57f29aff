// A private anvil with the contracts deployed, and helpers that enrol a
// customer on-chain the way the relay does (permit + signed enrolment,
// submitted by the relayer; on SubscriptionManagerV2 unless a test asks for
// v1), then hand the SubscriptionCreated log to the indexer entry point, like
// the indexer will.
import type { Sql } from '../../src/db/client.js';
import { waitForDevReceipt } from '../../tools/dev/chain/dev-receipts.js';
import {
  type Address,
  type Hex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEventLogs,
  type PublicClient,
  type TestClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../../src/chain/generated/contracts.js';
import { ensureSubscriptionManagerV2 } from '../../tools/dev/chain/deposit-factory.js';
import { chargeWindowSeconds, MEAN_MONTH_SECONDS } from '../../src/subscriptions/periods.js';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { startAnvil, type AnvilInstance } from '../../src/chain/anvil.js';
import { deployContracts, type DeployedContracts } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { createViemSubscriptionChain, type SubscriptionChain } from '../../src/subscriptions/chain.js';
import type { SubscriptionContractMode, SubscriptionCreatedLog } from '../../src/subscriptions/chain-events.js';
import { randomNonce, signEnrolment, signEnrolmentV2, signPermit } from '../chain/helpers.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

export type TestChain = {
  anvil: AnvilInstance;
  deployed: DeployedContracts;
  /** SubscriptionManagerV2, where `enrol` enrols unless told `manager: 'v1'`. */
  subscriptionManagerV2: Address;
  pub: PublicClient;
  testClient: TestClient;
  mode: SubscriptionContractMode;
  /** The real viem port, with the chain's clock moved up to each period's calendar start before charging. */
  subscriptionChain: SubscriptionChain;
  /** Mines a block at `ms` if the chain is behind it. */
  warpTo: (ms: number) => Promise<void>;
  chainNowMs: () => Promise<number>;
  mint: (to: Address, amount: bigint) => Promise<void>;
  /** What USDC's issuer does: the blacklister and the pauser dev accounts call the token. */
  issuer: (action: 'blacklist' | 'unBlacklist' | 'pause' | 'unpause', account?: Address) => Promise<void>;
  balanceOf: (who: Address) => Promise<bigint>;
  /** On SubscriptionManagerV2 (where `enrol` enrols by default). */
  isCharged: (onChainId: string, periodIndex: number) => Promise<boolean>;
  isCancelledOnChain: (onChainId: string) => Promise<boolean>;
  /** What SubscriptionManagerV2 pulled for an enrolment, from its SubscriptionCharged logs: [period index, amount]. */
  chargesOnChain: (onChainId: bigint) => Promise<[periodIndex: number, amount: bigint][]>;
  /**
   * `permitValue`: the allowance permitted at enrolment (default: the term, or 1000 periods when open-ended).
   * `manager`: v2 (default) or v1. `chargeWindow` (v2): default the platform's for the period
   * (chargeWindowSeconds of a mean-month multiple, else the period itself).
   */
  enrol: (input: {
    payer: PrivateKeyAccount;
    amount: bigint;
    period: bigint;
    periods: number;
    trialEnd?: bigint;
    permitValue?: bigint;
    manager?: 'v1' | 'v2';
    chargeWindow?: bigint;
  }) => Promise<SubscriptionCreatedLog>;
  stop: () => Promise<void>;
};

export const newPayer = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

/**
 * `sql`: the database the operator's nonce ledger lives in (the test's own). `chainId`: another chain id
 * than anvil's default (a second chain of the mode; the contracts land at the same addresses).
 */
export async function startTestChain(sql: Sql, options: { chainId?: number } = {}): Promise<TestChain> {
  const anvil = await startAnvil(options.chainId !== undefined ? { chainId: options.chainId } : {});
  const deployed = await deployContracts({ rpcUrl: anvil.rpcUrl, deployerKey: DEV_ACCOUNTS.deployer.privateKey });
  const subscriptionManagerV2 = await ensureSubscriptionManagerV2(anvil.rpcUrl);
  const chain = chainDefinition(anvil.chainId, anvil.rpcUrl);
  const pub = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 });
  const testClient = createTestClient({ mode: 'anvil', chain, transport: http(anvil.rpcUrl) });
  const walletOf = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(anvil.rpcUrl) });
  const relayer = walletOf(DEV_ACCOUNTS.relayer.privateKey);
  const minter = walletOf(DEV_ACCOUNTS.usdcMasterMinter.privateKey);
  const blacklister = walletOf(DEV_ACCOUNTS.usdcBlacklister.privateKey);
  const pauser = walletOf(DEV_ACCOUNTS.usdcPauser.privateKey);

  const chainNowMs = async () => Number((await pub.getBlock()).timestamp) * 1000;
  // Serialised: concurrent warps would race on the next block's timestamp.
  let warping: Promise<void> = Promise.resolve();
  const warpTo = (ms: number) => {
    warping = warping.then(async () => {
      const target = BigInt(Math.ceil(ms / 1000));
      const latest = (await pub.getBlock()).timestamp;
      if (latest >= target) return;
      await testClient.setNextBlockTimestamp({ timestamp: target });
      await testClient.mine({ blocks: 1 });
    });
    return warping;
  };

  const real = await createViemSubscriptionChain(
    {
      test: {
        rpcUrl: anvil.rpcUrl,
        operatorKey: DEV_ACCOUNTS.operator.privateKey,
        subscriptionManager: deployed.subscriptionManager,
        fromBlock: 0n,
        pollingIntervalMs: 50,
      },
    },
    { sql },
  );
  // The chain's clock moves to the later of the calendar start and the contract's (v2: the mean
  // month may start a period a few days after the calendar, docs/decisions.md "New enrolments on v2").
  // A call naming no contract is a test's own on a v2 enrolment; an id the contract does not know
  // (a test's corrupt id) is left to the charge, which reports it.
  const contractStartMs = async (input: { onChainId: string; periodIndex: number; contractAddress?: string }) =>
    pub
      .readContract({
        address: (input.contractAddress as Address | undefined) ?? subscriptionManagerV2,
        abi: subscriptionManagerAbi,
        functionName: 'periodStart',
        args: [BigInt(input.onChainId), input.periodIndex],
      })
      .then(
        (seconds) => Number(seconds) * 1000,
        () => 0,
      );
  const subscriptionChain: SubscriptionChain = {
    ...real,
    charge: async (input) => {
      // Only within the drift (under 5 days, periods.ts meanMonthDriftBoundSeconds): a contract start
      // further away is a period that has not started, which a test may ask the port about.
      const calendar = Date.parse(input.periodStart);
      const contract = await contractStartMs(input);
      await warpTo(contract - calendar < 5 * 86_400_000 ? Math.max(calendar, contract) : calendar);
      return real.charge(input);
    },
  };

  const mined = async (hash: Hex) => {
    const receipt = await waitForDevReceipt(pub as PublicClient, hash);
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };

  return {
    anvil,
    deployed,
    subscriptionManagerV2,
    pub,
    testClient,
    mode: {
      chainId: anvil.chainId,
      subscriptionManagers: [deployed.subscriptionManager, subscriptionManagerV2],
      subscriptionManagerV2,
      token: deployed.token,
      operator: DEV_ACCOUNTS.operator.address,
    },
    subscriptionChain,
    warpTo,
    chainNowMs,
    mint: async (to, amount) => {
      await mined(await minter.writeContract({ address: deployed.token, abi: fiatTokenAbi, functionName: 'mint', args: [to, amount] }));
    },
    issuer: async (action, account) => {
      const hash =
        action === 'pause' || action === 'unpause'
          ? await pauser.writeContract({ address: deployed.token, abi: fiatTokenAbi, functionName: action })
          : await blacklister.writeContract({ address: deployed.token, abi: fiatTokenAbi, functionName: action, args: [account!] });
      await mined(hash);
    },
    balanceOf: (who) => pub.readContract({ address: deployed.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [who] }),
    isCharged: (onChainId, periodIndex) =>
      pub.readContract({
        address: subscriptionManagerV2,
        abi: subscriptionManagerAbi,
        functionName: 'isCharged',
        args: [BigInt(onChainId), periodIndex],
      }),
    isCancelledOnChain: async (onChainId) =>
      (
        await pub.readContract({
          address: subscriptionManagerV2,
          abi: subscriptionManagerAbi,
          functionName: 'getSubscription',
          args: [BigInt(onChainId)],
        })
      ).cancelled,
    chargesOnChain: async (onChainId) =>
      (
        await pub.getContractEvents({
          address: subscriptionManagerV2,
          abi: subscriptionManagerAbi,
          eventName: 'SubscriptionCharged',
          args: { id: onChainId },
          fromBlock: 0n,
        })
      ).map((l): [number, bigint] => [l.args.periodIndex!, l.args.amount!]),
    enrol: async ({ payer, amount, period, periods, trialEnd = 0n, permitValue: permitted, manager = 'v2', chargeWindow }) => {
      const now = (await pub.getBlock()).timestamp;
      const deadline = now + 3600n * 24n * 365n * 10n;
      const permitValue = permitted ?? (periods === 0 ? amount * 1000n : amount * BigInt(periods));
      const address = manager === 'v2' ? subscriptionManagerV2 : deployed.subscriptionManager;
      const permit = await signPermit(pub, payer, deployed.token, { spender: address, value: permitValue, deadline });
      const terms = {
        token: deployed.token,
        merchant: DEV_ACCOUNTS.merchant.address,
        operator: DEV_ACCOUNTS.operator.address,
        amount,
        period,
        periods,
        trialEnd,
      };
      let hash: Hex;
      if (manager === 'v1') {
        const auth = await signEnrolment(pub, payer, address, terms, { nonce: randomNonce(), deadline });
        hash = await relayer.writeContract({
          address,
          abi: subscriptionManagerAbi,
          functionName: 'subscribeWithPermitFor',
          args: [payer.address, terms, permit, auth],
        });
      } else {
        const window =
          chargeWindow ??
          (period % BigInt(MEAN_MONTH_SECONDS) === 0n
            ? BigInt(chargeWindowSeconds('monthly', Number(period / BigInt(MEAN_MONTH_SECONDS))))
            : period);
        const termsV2 = { ...terms, chargeWindow: window };
        const auth = await signEnrolmentV2(pub, payer, address, termsV2, { nonce: randomNonce(), deadline });
        hash = await relayer.writeContract({
          address,
          abi: subscriptionManagerV2Abi,
          functionName: 'subscribeWithPermitFor',
          args: [payer.address, termsV2, permit, auth],
        });
      }
      const receipt = await mined(hash);
      const [log] = parseEventLogs({ abi: subscriptionManagerAbi, logs: receipt.logs, eventName: 'SubscriptionCreated' });
      const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
      const signedWindow =
        manager === 'v2'
          ? await pub.readContract({ address, abi: subscriptionManagerV2Abi, functionName: 'chargeWindow', args: [log!.args.id] })
          : undefined;
      return {
        livemode: false,
        chainId: anvil.chainId,
        address: log!.address,
        transactionHash: hash,
        blockTimestamp: block.timestamp,
        args: log!.args,
        ...(signedWindow !== undefined ? { chargeWindow: signedWindow } : {}),
      };
    },
    stop: () => anvil.stop(),
  };
}

/**
 * Brings a test chain and the time-skipping server to the same time before an enrolment. The chain
 * can run ahead of the workflow clock (a charge warps it to the contract's period, days past the
 * calendar's), and an enrolment dated ahead waits for its first period on a timer that only a time
 * skip fires: a test that waits on the database rather than on a workflow result never skips, and
 * hangs. So the workflow clock is slept forward to the chain's, or the chain warped up to it.
 */
export async function alignClocks(
  env: { currentTimeMs(): Promise<number>; sleep(durationMs: number): Promise<void> },
  chain: Pick<TestChain, 'warpTo' | 'chainNowMs'>,
): Promise<number> {
  const [workflowNow, chainNow] = await Promise.all([env.currentTimeMs(), chain.chainNowMs()]);
  if (chainNow > workflowNow) await env.sleep(chainNow - workflowNow + 1_000);
  else await chain.warpTo(workflowNow);
  return env.currentTimeMs();
}
