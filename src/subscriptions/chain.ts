// The narrow chain port the subscription activities depend on, and its viem
// implementation against SubscriptionManager. Both operations are idempotent:
// a charge of a period that is already charged returns the existing charge
// (found through its SubscriptionCharged log), and cancelling a cancelled
// subscription is a no-op. Every call is simulated first, so a refusal comes
// back as the contract's named error without spending gas. Transactions go
// through the operator's Postgres nonce ledger (src/chain/operator-sender.ts).
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  http,
  keccak256,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { subscriptionManagerAbi, testUsdcAbi } from '../chain/abi.js';
import { splitSig } from '../chain/typed-data.js';
import { devChain } from '../chain/deploy.js';
import { createOperatorSender, type OperatorSender } from '../chain/operator-sender.js';
import { createReceiptWaiter } from '../chain/receipts.js';
import type { Sql } from '../db/client.js';

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

/** A subscriber's signed EIP-2612 permit for the SubscriptionManager (the renewal page's top-up). */
export type AllowancePermitInput = { livemode: boolean; token: string; owner: string; value: string; deadline: string; signature: Hex };
export type AllowancePermitResult = { ok: true; txHash: Hex; blockNumber: string } | { ok: false; reason: string };

export interface SubscriptionChain {
  charge(input: ChargeInput): Promise<ChargeResult>;
  isCharged(input: { livemode: boolean; onChainId: string; periodIndex: number }): Promise<boolean>;
  cancel(input: { livemode: boolean; onChainId: string }): Promise<CancelResult>;
  /** `allowance(owner, SubscriptionManager)` of the token: what the operator may still charge. */
  allowance(input: { livemode: boolean; token: string; owner: string }): Promise<bigint>;
  /** Submits the permit (operator pays the gas), once per signature; a refusal comes back by name without gas. */
  permit(input: AllowancePermitInput): Promise<AllowancePermitResult>;
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
  /** How long a charge or cancel may wait for inclusion before it is replaced with a higher fee (default 120). */
  stuckAfterSeconds?: number;
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

export async function createViemSubscriptionChain(
  modes: { test?: SubscriptionChainMode; live?: SubscriptionChainMode },
  deps: { sql: Sql },
): Promise<SubscriptionChain> {
  type Clients = { mode: SubscriptionChainMode; pub: PublicClient; sender: OperatorSender };
  const clients = new Map<boolean, Clients>();
  for (const [livemode, mode] of [[false, modes.test], [true, modes.live]] as const) {
    if (!mode) continue;
    const bootstrap = createPublicClient({ transport: http(mode.rpcUrl) });
    const chainId = await bootstrap.getChainId();
    const chain = devChain(chainId, mode.rpcUrl);
    const pollingInterval = mode.pollingIntervalMs ?? 500;
    // Reads of concurrent charges share HTTP round trips (JSON-RPC batches), and so do their receipt polls.
    const pub = createPublicClient({ chain, transport: http(mode.rpcUrl, { batch: { batchSize: 100 } }), pollingInterval }) as PublicClient;
    const sender = createOperatorSender({
      sql: deps.sql,
      client: pub,
      account: privateKeyToAccount(mode.operatorKey),
      chainId,
      receipts: createReceiptWaiter(pub, pollingInterval),
      stuckAfterMs: (mode.stuckAfterSeconds ?? 120) * 1000,
    });
    clients.set(livemode, { mode, pub, sender });
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

  const isCharged = (c: Clients, id: bigint, periodIndex: number) =>
    c.pub.readContract({ address: c.mode.subscriptionManager, abi: subscriptionManagerAbi, functionName: 'isCharged', args: [id, periodIndex] });

  /**
   * The transaction for `purpose`: an earlier attempt's transaction still open is followed to its
   * end first (a retried activity must not send a second one); otherwise `prepare` simulates and
   * either refuses (a named failure, nothing sent) or names the call, which is sent and followed.
   * A sent transaction that reverted or was dropped comes back as its `outcome`, for the caller to
   * re-check the chain before the next attempt.
   */
  async function sendFor<F>(
    c: Clients,
    purpose: string,
    prepare: () => Promise<{ call: { to: Address; data: Hex } } | { refused: F }>,
  ): Promise<{ receipt: TransactionReceipt } | { refused: F } | { outcome: 'reverted' | 'dropped' }> {
    const earlier = await c.sender.find(purpose);
    if (earlier?.outcome === null) {
      const settled = await c.sender.settle(earlier);
      if (settled.outcome === 'success') return { receipt: settled.receipt };
    }
    const prepared = await prepare();
    if ('refused' in prepared) return prepared;
    // Against the latest block: the operator's own queued transactions must not skew the estimate.
    const estimate = await c.pub.estimateGas({ account: c.sender.address, ...prepared.call, blockTag: 'latest' });
    const sent = await c.sender.send({ purpose, ...prepared.call, gas: (estimate * 13n) / 10n });
    const settled = await c.sender.settle(sent);
    return settled.outcome === 'success' ? { receipt: settled.receipt } : { outcome: settled.outcome };
  }

  return {
    async isCharged({ livemode, onChainId, periodIndex }) {
      return isCharged(get(livemode), BigInt(onChainId), periodIndex);
    },

    async charge({ livemode, onChainId, periodIndex, amount }) {
      const c = get(livemode);
      const id = BigInt(onChainId);
      if (await isCharged(c, id, periodIndex)) return existingCharge(c, id, periodIndex);
      const args = [id, periodIndex, BigInt(amount)] as const;
      const result = await sendFor<ChargeResult | 'already_charged'>(c, `charge:${c.mode.subscriptionManager}:${id}:${periodIndex}`, async () => {
        try {
          await c.pub.simulateContract({ account: c.sender.address, address: c.mode.subscriptionManager, abi: subscriptionManagerAbi, functionName: 'charge', args });
        } catch (error) {
          const revert = decodeContractRevert(error);
          if (!revert) throw error; // transport trouble: the activity retries
          const failure = REVERT_TO_FAILURE[revert.errorName];
          if (failure === 'already_charged') return { refused: 'already_charged' };
          if (!failure) throw error;
          return { refused: { ok: false, failure, reason: describeRevert(revert) } };
        }
        return { call: { to: c.mode.subscriptionManager, data: encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'charge', args }) } };
      });
      if ('receipt' in result) return { ok: true, txHash: result.receipt.transactionHash, blockNumber: result.receipt.blockNumber.toString(), alreadyCharged: false };
      if ('refused' in result) return result.refused === 'already_charged' ? existingCharge(c, id, periodIndex) : result.refused;
      // Reverted or dropped after a clean simulation: most likely another transaction charged the
      // period first, or the state moved. The next attempt simulates again.
      if (await isCharged(c, id, periodIndex)) return existingCharge(c, id, periodIndex);
      throw new Error(`the charge of period ${periodIndex} of subscription ${id} was ${result.outcome}; will simulate again on retry`);
    },

    async cancel({ livemode, onChainId }) {
      const c = get(livemode);
      const id = BigInt(onChainId);
      const cancelled = async () =>
        (await c.pub.readContract({ address: c.mode.subscriptionManager, abi: subscriptionManagerAbi, functionName: 'getSubscription', args: [id] })).cancelled;
      if (await cancelled()) return { txHash: null, alreadyCancelled: true };
      const result = await sendFor<'already_cancelled'>(c, `cancel:${c.mode.subscriptionManager}:${id}`, async () => {
        try {
          await c.pub.simulateContract({ account: c.sender.address, address: c.mode.subscriptionManager, abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] });
        } catch (error) {
          if (decodeContractRevert(error)?.errorName === 'SubscriptionIsCancelled') return { refused: 'already_cancelled' };
          throw error;
        }
        return { call: { to: c.mode.subscriptionManager, data: encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] }) } };
      });
      if ('receipt' in result) return { txHash: result.receipt.transactionHash, alreadyCancelled: false };
      if ('refused' in result || (await cancelled())) return { txHash: null, alreadyCancelled: true };
      throw new Error(`the cancel of subscription ${id} was ${result.outcome}; will retry`);
    },

    async allowance({ livemode, token, owner }) {
      const c = get(livemode);
      return c.pub.readContract({ address: getAddress(token), abi: testUsdcAbi, functionName: 'allowance', args: [getAddress(owner), c.mode.subscriptionManager] });
    },

    async permit({ livemode, token, owner, value, deadline, signature }) {
      const c = get(livemode);
      // One transaction per signature: a retried activity follows (or finds) the one already sent.
      const purpose = `permit:${getAddress(token)}:${keccak256(signature)}`;
      const done = await c.sender.find(purpose);
      if (done?.outcome === 'success') {
        const receipt = await c.pub.getTransactionReceipt({ hash: done.transactionHash as Hex });
        return { ok: true, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber.toString() };
      }
      const { v, r, s } = splitSig(signature);
      const args = [getAddress(owner), c.mode.subscriptionManager, BigInt(value), BigInt(deadline), v, r, s] as const;
      const result = await sendFor<string>(c, purpose, async () => {
        try {
          await c.pub.simulateContract({ account: c.sender.address, address: getAddress(token), abi: testUsdcAbi, functionName: 'permit', args });
        } catch (error) {
          const revert = decodeContractRevert(error);
          if (!revert) throw error;
          return { refused: describeRevert(revert) };
        }
        return { call: { to: getAddress(token), data: encodeFunctionData({ abi: testUsdcAbi, functionName: 'permit', args }) } };
      });
      if ('receipt' in result) return { ok: true, txHash: result.receipt.transactionHash, blockNumber: result.receipt.blockNumber.toString() };
      if ('refused' in result) return { ok: false, reason: result.refused };
      throw new Error(`the permit of ${owner} was ${result.outcome}; will simulate again on retry`);
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
  allowance: async ({ livemode }) => {
    throw new ChainModeNotConfiguredError(livemode);
  },
  permit: async ({ livemode }) => {
    throw new ChainModeNotConfiguredError(livemode);
  },
};
