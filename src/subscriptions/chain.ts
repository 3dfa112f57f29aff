// The narrow chain port the subscription activities depend on, and its viem
// implementation against SubscriptionManager. Both operations are idempotent:
// a charge of a period that is already charged returns the existing charge
// (found through its SubscriptionCharged log), and cancelling a cancelled
// subscription is a no-op. Every call is simulated first, so a refusal comes
// back as the contract's named error without spending gas.
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  createPublicClient,
  createWalletClient,
  http,
  type PublicClient,
} from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import { subscriptionManagerAbi } from '../chain/abi.js';
import { devChain } from '../chain/deploy.js';
import { createReceiptWaiter, type ReceiptWaiter } from '../chain/receipts.js';

/** Why the contract refused a charge. Business outcomes, not retried as errors. */
export const CHARGE_FAILURES = [
  'insufficient_funds',
  'insufficient_allowance',
  'cancelled_on_chain',
  'period_not_started',
  'period_beyond_term',
  'amount_exceeds_terms',
  'not_operator',
  'subscription_not_found',
] as const;
export type ChargeFailure = (typeof CHARGE_FAILURES)[number];

export type ChargeInput = { livemode: boolean; onChainId: string; periodIndex: number; amount: string; periodStart: string };

export type ChargeResult =
  | { ok: true; txHash: Hex; blockNumber: string; alreadyCharged: boolean }
  | { ok: false; failure: ChargeFailure; reason: string };

export type CancelResult = { txHash: Hex | null; alreadyCancelled: boolean };

export interface SubscriptionChain {
  charge(input: ChargeInput): Promise<ChargeResult>;
  isCharged(input: { livemode: boolean; onChainId: string; periodIndex: number }): Promise<boolean>;
  cancel(input: { livemode: boolean; onChainId: string }): Promise<CancelResult>;
}

/** One mode's chain settings (the chain layer's per-mode config maps onto this at merge). */
export type SubscriptionChainMode = {
  rpcUrl: string;
  /** The operator allowed to charge (the Terms' operator). */
  operatorKey: Hex;
  subscriptionManager: Address;
  /** First block to search for SubscriptionCharged logs (the deployment block). */
  fromBlock?: bigint;
  /** Receipt polling interval; small on dev chains. */
  pollingIntervalMs?: number;
};

export class ChainModeNotConfiguredError extends Error {
  constructor(livemode: boolean) {
    super(`No chain is configured for ${livemode ? 'live' : 'test'} mode`);
    this.name = 'ChainModeNotConfiguredError';
  }
}

const REVERT_TO_FAILURE: Record<string, ChargeFailure | 'already_charged'> = {
  InsufficientBalance: 'insufficient_funds',
  InsufficientAllowance: 'insufficient_allowance',
  SubscriptionIsCancelled: 'cancelled_on_chain',
  PeriodNotStarted: 'period_not_started',
  PeriodBeyondTerm: 'period_beyond_term',
  AmountExceedsTerms: 'amount_exceeds_terms',
  NotOperator: 'not_operator',
  SubscriptionNotFound: 'subscription_not_found',
  PeriodAlreadyCharged: 'already_charged',
};

/** The contract's custom error behind a viem error, or undefined when it is not a revert (e.g. RPC down). */
export function decodeContractRevert(error: unknown): { errorName: string; args: readonly unknown[] } | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError) || !revert.data) return undefined;
  return { errorName: revert.data.errorName, args: revert.data.args ?? [] };
}

function describeRevert(revert: { errorName: string; args: readonly unknown[] }): string {
  return `${revert.errorName}(${revert.args.map(String).join(', ')})`;
}

export async function createViemSubscriptionChain(modes: { test?: SubscriptionChainMode; live?: SubscriptionChainMode }): Promise<SubscriptionChain> {
  type Clients = { mode: SubscriptionChainMode; pub: PublicClient; wallet: ReturnType<typeof createWalletClient>; operator: Address; receipts: ReceiptWaiter };
  const clients = new Map<boolean, Clients>();
  for (const [livemode, mode] of [[false, modes.test], [true, modes.live]] as const) {
    if (!mode) continue;
    const bootstrap = createPublicClient({ transport: http(mode.rpcUrl) });
    const chain = devChain(await bootstrap.getChainId(), mode.rpcUrl);
    // The nonce manager serialises this process's nonces for the operator key.
    const account = privateKeyToAccount(mode.operatorKey, { nonceManager });
    const pollingInterval = mode.pollingIntervalMs ?? 500;
    // Reads of concurrent charges share HTTP round trips (JSON-RPC batches), and so do their receipt polls.
    const pub = createPublicClient({ chain, transport: http(mode.rpcUrl, { batch: { batchSize: 100 } }), pollingInterval }) as PublicClient;
    clients.set(livemode, {
      mode,
      pub,
      wallet: createWalletClient({ account, chain, transport: http(mode.rpcUrl) }),
      operator: account.address,
      receipts: createReceiptWaiter(pub, pollingInterval),
    });
  }
  const get = (livemode: boolean): Clients => {
    const c = clients.get(livemode);
    if (!c) throw new ChainModeNotConfiguredError(livemode);
    return c;
  };

  async function findChargeLog(c: Clients, id: bigint, periodIndex: number): Promise<{ txHash: Hex; blockNumber: string } | undefined> {
    const logs = await c.pub.getContractEvents({
      address: c.mode.subscriptionManager,
      abi: subscriptionManagerAbi,
      eventName: 'SubscriptionCharged',
      args: { id, periodIndex },
      fromBlock: c.mode.fromBlock ?? 0n,
      toBlock: 'latest',
    });
    const log = logs[0];
    if (!log?.transactionHash || log.blockNumber === null) return undefined;
    return { txHash: log.transactionHash, blockNumber: log.blockNumber.toString() };
  }

  async function existingCharge(c: Clients, id: bigint, periodIndex: number): Promise<ChargeResult> {
    const found = await findChargeLog(c, id, periodIndex);
    // Charged but the log is not visible yet (e.g. a lagging node): retry later.
    if (!found) throw new Error(`period ${periodIndex} of subscription ${id} is charged but its log was not found yet`);
    return { ok: true, ...found, alreadyCharged: true };
  }

  return {
    async isCharged({ livemode, onChainId, periodIndex }) {
      const c = get(livemode);
      return c.pub.readContract({
        address: c.mode.subscriptionManager,
        abi: subscriptionManagerAbi,
        functionName: 'isCharged',
        args: [BigInt(onChainId), periodIndex],
      });
    },

    async charge({ livemode, onChainId, periodIndex, amount }) {
      const c = get(livemode);
      const id = BigInt(onChainId);
      const charged = await c.pub.readContract({
        address: c.mode.subscriptionManager,
        abi: subscriptionManagerAbi,
        functionName: 'isCharged',
        args: [id, periodIndex],
      });
      if (charged) return existingCharge(c, id, periodIndex);

      let request;
      try {
        ({ request } = await c.pub.simulateContract({
          account: c.wallet.account!,
          address: c.mode.subscriptionManager,
          abi: subscriptionManagerAbi,
          functionName: 'charge',
          args: [id, periodIndex, BigInt(amount)],
        }));
      } catch (error) {
        const revert = decodeContractRevert(error);
        if (!revert) throw error; // transport trouble: the activity retries
        const failure = REVERT_TO_FAILURE[revert.errorName];
        if (failure === 'already_charged') return existingCharge(c, id, periodIndex);
        if (!failure) throw error;
        return { ok: false, failure, reason: describeRevert(revert) };
      }

      const hash = await c.wallet.writeContract(request);
      const receipt = await c.receipts.wait(hash);
      if (receipt.status === 'success') return { ok: true, txHash: hash, blockNumber: receipt.blockNumber.toString(), alreadyCharged: false };
      // Reverted after a clean simulation: most likely a concurrent transaction charged the
      // period first (a retried activity racing its predecessor) or the state moved.
      const chargedNow = await c.pub.readContract({
        address: c.mode.subscriptionManager,
        abi: subscriptionManagerAbi,
        functionName: 'isCharged',
        args: [id, periodIndex],
      });
      if (chargedNow) return existingCharge(c, id, periodIndex);
      throw new Error(`charge transaction ${hash} reverted; will simulate again on retry`);
    },

    async cancel({ livemode, onChainId }) {
      const c = get(livemode);
      const id = BigInt(onChainId);
      const sub = await c.pub.readContract({
        address: c.mode.subscriptionManager,
        abi: subscriptionManagerAbi,
        functionName: 'getSubscription',
        args: [id],
      });
      if (sub.cancelled) return { txHash: null, alreadyCancelled: true };
      let request;
      try {
        ({ request } = await c.pub.simulateContract({
          account: c.wallet.account!,
          address: c.mode.subscriptionManager,
          abi: subscriptionManagerAbi,
          functionName: 'cancel',
          args: [id],
        }));
      } catch (error) {
        if (decodeContractRevert(error)?.errorName === 'SubscriptionIsCancelled') return { txHash: null, alreadyCancelled: true };
        throw error;
      }
      const hash = await c.wallet.writeContract(request);
      const receipt = await c.receipts.wait(hash);
      if (receipt.status !== 'success') throw new Error(`cancel transaction ${hash} reverted; will retry`);
      return { txHash: hash, alreadyCancelled: false };
    },
  };
}

/** The port when no chain is configured: every call fails (and the activity retries) until one is. */
export const unconfiguredSubscriptionChain: SubscriptionChain = {
  charge: async ({ livemode }) => {
    throw new ChainModeNotConfiguredError(livemode);
  },
  isCharged: async ({ livemode }) => {
    throw new ChainModeNotConfiguredError(livemode);
  },
  cancel: async ({ livemode }) => {
    throw new ChainModeNotConfiguredError(livemode);
  },
};
