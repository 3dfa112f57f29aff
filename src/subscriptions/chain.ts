// The narrow chain port the subscription activities depend on, and its viem
// implementation against SubscriptionManager. Both operations are idempotent:
// a charge of a period that is already charged returns the existing charge
// (found through its SubscriptionCharged log), and cancelling a cancelled
// subscription is a no-op. Every call is simulated first, so a refusal comes
// back as the contract's named error without spending gas. Transactions go
// through the operator's Postgres nonce ledger (src/chain/operator-sender.ts).
// Every call goes to the subscription's own manager (v1 or v2: the same charge, cancel and view
// signatures), named by its row's contract address; a call that names none goes to the mode's v1
// manager (runs recorded before the address was passed only ever named v1 subscriptions).
// A mode may have several chains: each (mode, chain) has its own client, operator sender and
// batcher, and a call goes to the chain its subscription names (`chainId`); one that names none
// goes to the mode's first chain (every subscription recorded before a mode had several chains).
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  type Log,
  type PublicClient,
  type TransactionReceipt,
  createPublicClient,
  encodeFunctionData,
  encodeAbiParameters,
  getAddress,
  keccak256,
  parseEventLogs,
  toFunctionSelector,
} from 'viem';
import { signingAccount } from '../chain/signing-account.js';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../chain/generated/contracts.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { splitSig } from '../chain/typed-data.js';
import { chainDefinition } from '../chain/chain-definition.js';
import { rpcTransport, type RpcBounds } from '../chain/clients.js';
import { createOperatorSender, type OperatorSender } from '../chain/operator-sender.js';
import { callInNextBlock, estimateGasInNextBlock, nextBlockTime } from '../chain/chain-time.js';
import { createReceiptWaiter } from '../chain/receipts.js';
import { classifyRevert, type RefusalCode } from '../chain/refusals.js';
import { nameBlacklistedSide } from '../chain/token-standing.js';
import {
  CHARGE_MANY_SELECTOR,
  DEFAULT_CHARGE_BATCH,
  chargeFailureName,
  createBatcher,
  type Batcher,
  type ChargeBatchOptions,
} from './charge-batch.js';
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
  /** Token refusals (src/chain/refusals.ts): the subscriber or the merchant is blacklisted by USDC; never chargeable again. */
  'payer_blacklisted',
  'merchant_blacklisted',
  'account_blacklisted',
  /** USDC is paused: the dunning loop retries later. */
  'token_paused',
  /** v2: the period's charge window closed before it was charged (contracts/SubscriptionManagerV2.sol); it stays unpaid. */
  'charge_window_closed',
  /** The charge failed for good (an activity's permanent failure: a final revert, a malformed on-chain id); the subscription goes at_risk and lapses after its grace window. */
  'charge_refused',
] as const;
/** The latest block's time read for each charge, not shared for a second: a charge is worth one more read. */
const FRESH_CHAIN_TIME = { maxAgeMs: 0 };

export type ChargeFailure = (typeof CHARGE_FAILURES)[number];

/**
 * `contractAddress`: the subscription's manager (its row's); absent: the mode's v1 manager.
 * `subscriber` and `token`: whose allowance a batched charge reads back with the rest of its batch
 * (`ChargeResult.allowance`); absent (runs recorded before they were passed): nothing is read.
 */
export type ChargeInput = {
  livemode: boolean;
  /** The subscription's chain (its row's); absent (calls recorded before it was passed): the mode's first chain. */
  chainId?: string | number;
  onChainId: string;
  periodIndex: number;
  amount: string;
  periodStart: string;
  contractAddress?: string;
  subscriber?: string;
  token?: string;
};

/**
 * `retryAt` (ISO), on `period_not_started`: when the contract lets the period be charged (its
 * PeriodNotStarted's startsAt). On v2 the contract's start may lie up to a few days after the
 * calendar's (periods.ts, meanMonthDriftSeconds); the workflow waits until then.
 */
export type ChargeResult =
  | {
      ok: true;
      txHash: Hex;
      blockNumber: string;
      alreadyCharged: boolean;
      /**
       * The subscriber's allowance to the manager left after the charge (base units), read for the
       * whole `chargeMany` batch in one round trip once it was mined. Absent when it was not read
       * (a charge sent alone, an already charged period, a failed read): the allowance note reads it.
       */
      allowance?: string;
    }
  | { ok: false; failure: ChargeFailure; reason: string; retryAt?: string };

export type CancelResult = { txHash: Hex | null; alreadyCancelled: boolean };

/** A subscriber's signed EIP-2612 permit for the SubscriptionManager (the renewal page's top-up). */
export type AllowancePermitInput = {
  livemode: boolean;
  chainId?: string | number;
  token: string;
  owner: string;
  value: string;
  deadline: string;
  signature: Hex;
  /** The subscription's manager, the permit's spender; absent: the mode's v1 manager. */
  contractAddress?: string;
};
/**
 * A refused permit carries the token's refusal code (src/chain/refusals.ts) when it is one, e.g.
 * `token_paused`, `authorization_expired`, `signature_invalid`; runs recorded before codes have none.
 */
export type AllowancePermitResult = { ok: true; txHash: Hex; blockNumber: string } | { ok: false; reason: string; code?: RefusalCode };

export interface SubscriptionChain {
  charge(input: ChargeInput): Promise<ChargeResult>;
  isCharged(input: {
    livemode: boolean;
    chainId?: string | number;
    onChainId: string;
    periodIndex: number;
    contractAddress?: string;
  }): Promise<boolean>;
  cancel(input: { livemode: boolean; chainId?: string | number; onChainId: string; contractAddress?: string }): Promise<CancelResult>;
  /** `allowance(owner, the subscription's manager)` of the token: what the operator may still charge. */
  allowance(input: {
    livemode: boolean;
    chainId?: string | number;
    token: string;
    owner: string;
    contractAddress?: string;
  }): Promise<bigint>;
  /** Submits the permit (operator pays the gas), once per signature; a refusal comes back by name without gas. */
  permit(input: AllowancePermitInput): Promise<AllowancePermitResult>;
  /**
   * The subscription's signed charge window in seconds (v2), or null on a manager without one (v1).
   * Optional: ports written for v1 only have none, which means "no window".
   */
  chargeWindow?(input: {
    livemode: boolean;
    chainId?: string | number;
    onChainId: string;
    contractAddress?: string;
  }): Promise<bigint | null>;
}

/** One mode's chain settings (the chain layer's per-mode config maps onto this at merge). */
export type SubscriptionChainMode = {
  rpcUrl: string;
  /** The operator allowed to charge (the Terms' operator). */
  operatorKey: Hex;
  /** The v1 manager: where a call that names no contract goes. */
  subscriptionManager: Address;
  /** First block to search for SubscriptionCharged logs (the deployment block). */
  fromBlock?: bigint;
  /** Receipt polling interval; small on dev chains. */
  pollingIntervalMs?: number;
  /** How long a charge or cancel may wait for inclusion before it is replaced with a higher fee (default 120). */
  stuckAfterSeconds?: number;
  /**
   * Charges due together go out as one `chargeMany` transaction per batch (src/subscriptions/charge-batch.ts).
   * `false`: every charge is its own `charge` transaction. A contract without chargeMany is charged one by one.
   */
  chargeBatch?: Partial<ChargeBatchOptions> | false;
} & RpcBounds;

export class ChainModeNotConfiguredError extends Error {
  constructor(livemode: boolean, chainId?: string | number) {
    super(
      chainId === undefined
        ? `No chain is configured for ${livemode ? 'live' : 'test'} mode`
        : `Chain ${chainId} is not one of the ${livemode ? 'live' : 'test'} mode chains this worker charges on`,
    );
    this.name = 'ChainModeNotConfiguredError';
  }
}

/** A mode's chains: one (as before several chains per mode) or a list, the first the mode's default. */
export type OneOrMore<T> = T | T[];
export const listOf = <T>(value: OneOrMore<T> | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

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
  ChargeWindowClosed: 'charge_window_closed',
};

const CHARGE_WINDOW_SELECTOR = toFunctionSelector('chargeWindow(uint256)');

/** v1's functions and events with v2's errors too, so a v2 refusal (ChargeWindowClosed) is decoded by name. */
const chargeAbi = [...subscriptionManagerAbi, ...subscriptionManagerV2Abi.filter((item) => item.type === 'error')];

/** The contract's start of the period a PeriodNotStarted names (its third argument, seconds), as ISO. */
function periodStartsAt(revert: { errorName: string; args: readonly unknown[] }): string | undefined {
  const startsAt = revert.errorName === 'PeriodNotStarted' ? revert.args[2] : undefined;
  return typeof startsAt === 'bigint' ? new Date(Number(startsAt) * 1000).toISOString() : undefined;
}

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

/**
 * Each item's outcome in a mined `chargeMany`, keyed `id:periodIndex`: 'charged' for a SubscriptionCharged
 * log of `manager`, else the SubscriptionChargeFailed reason (an error selector). One pass over the receipt.
 */
export function chargeManyOutcomes(manager: Address, logs: Log[]): Map<string, 'charged' | Hex> {
  const outcomes = new Map<string, 'charged' | Hex>();
  const events = parseEventLogs({ abi: subscriptionManagerAbi, logs, eventName: ['SubscriptionCharged', 'SubscriptionChargeFailed'] });
  for (const l of events) {
    if (l.address.toLowerCase() !== manager.toLowerCase()) continue;
    const key = `${l.args.id}:${l.args.periodIndex}`;
    if (l.eventName === 'SubscriptionCharged') outcomes.set(key, 'charged');
    else if (!outcomes.has(key)) outcomes.set(key, l.args.reason);
  }
  return outcomes;
}

export async function createViemSubscriptionChain(
  modes: { test?: OneOrMore<SubscriptionChainMode>; live?: OneOrMore<SubscriptionChainMode> },
  deps: {
    sql: Sql;
    /**
     * A chain the port was not built with (a test clock's fork, issue 39): its operator side, or
     * undefined when the mode has no such chain. Its clients are built at the first call naming it,
     * and again when its node moved (a fork forked again answers on another URL).
     */
    resolveChain?: (livemode: boolean, chainId: number) => Promise<SubscriptionChainMode | undefined>;
  },
): Promise<SubscriptionChain> {
  /** `allowanceOf`: the subscriber and token whose allowance is read back after the batch. */
  type BatchItem = { id: bigint; periodIndex: number; amount: bigint; allowanceOf?: { owner: Address; token: Address } };
  type Clients = {
    mode: SubscriptionChainMode;
    pub: PublicClient;
    /** The batches' allowance reads only: what it is handed in one tick goes out as one JSON-RPC batch. */
    allowanceReads: PublicClient;
    sender: OperatorSender;
    batcher?: Batcher<BatchItem, ChargeResult>;
    /** Whether the contract's code has chargeMany (read once). */
    batchable?: Promise<boolean>;
    /** Whether the contract's code has chargeWindow(uint256), i.e. is v2 (read once). */
    windowed?: Promise<boolean>;
  };
  /** One per (mode, chain), keyed `livemode:chainId`; `firsts` names each mode's first chain (calls naming none). */
  const clients = new Map<string, Clients>();
  const firsts = new Map<boolean, number>();
  /** The chains built on demand (resolveChain), keyed as `clients`: rebuilt when their node moved. */
  const resolved = new Set<string>();
  /** One view per (mode, chain, manager): its own batcher (a chargeMany goes to one contract), the chain's client and sender. */
  const views = new Map<string, Clients>();
  const withBatcher = (c: Clients): Clients => {
    if (c.mode.chargeBatch !== false) {
      const options = { ...DEFAULT_CHARGE_BATCH, ...c.mode.chargeBatch };
      c.batcher = createBatcher<BatchItem, ChargeResult>(options, (items) => chargeBatch(c, items));
    }
    return c;
  };
  /** A chain's client, operator sender and batcher. */
  const build = (mode: SubscriptionChainMode, chainId: number): Clients => {
    const chain = chainDefinition(chainId, mode.rpcUrl);
    const pollingInterval = mode.pollingIntervalMs ?? 500;
    // Reads of concurrent charges share HTTP round trips (JSON-RPC batches), and so do their receipt polls.
    const pub = createPublicClient({
      chain,
      transport: rpcTransport(mode.rpcUrl, mode, { batch: { batchSize: 100 } }),
      pollingInterval,
    }) as PublicClient;
    const sender = createOperatorSender({
      sql: deps.sql,
      client: pub,
      account: signingAccount(mode.operatorKey),
      chainId,
      receipts: createReceiptWaiter(pub, pollingInterval),
      stuckAfterMs: (mode.stuckAfterSeconds ?? 120) * 1000,
    });
    // Its own client, so a batch's allowance reads share one HTTP request with nothing else (no
    // Multicall3 on a dev chain: src/chain/clients.ts); a batch holds at most maxItems subscribers.
    const allowanceReads = createPublicClient({
      chain,
      transport: rpcTransport(mode.rpcUrl, mode, { batch: { batchSize: 1_000 } }),
    }) as PublicClient;
    return withBatcher({ mode, pub, allowanceReads, sender });
  };
  for (const [livemode, mode] of [
    ...listOf(modes.test).map((m) => [false, m] as const),
    ...listOf(modes.live).map((m) => [true, m] as const),
  ]) {
    const bootstrap = createPublicClient({ transport: rpcTransport(mode.rpcUrl, mode) });
    const chainId = await bootstrap.getChainId();
    if (!firsts.has(livemode)) firsts.set(livemode, chainId);
    clients.set(`${livemode}:${chainId}`, build(mode, chainId));
  }
  /** The clients of a chain the port was not built with, from `resolveChain` (cached while its node stays). */
  const resolve = async (livemode: boolean, id: number): Promise<Clients | undefined> => {
    const key = `${livemode}:${id}`;
    const mode = await deps.resolveChain?.(livemode, id);
    if (!mode) return undefined;
    const known = clients.get(key);
    if (known && known.mode.rpcUrl === mode.rpcUrl) return known;
    for (const view of views.keys()) if (view.startsWith(`${key}:`)) views.delete(view);
    const built = build(mode, id);
    clients.set(key, built);
    resolved.add(key);
    return built;
  };
  /**
   * The clients of the subscription's chain, never another's: a chain this port does not have is an
   * error (the activity retries until the worker is configured for it), not a charge on the default.
   */
  const get = async (livemode: boolean, contractAddress?: string, chainId?: string | number): Promise<Clients> => {
    const id = chainId === undefined ? firsts.get(livemode) : Number(chainId);
    const key = `${livemode}:${id}`;
    const configured = id === undefined ? undefined : clients.get(key);
    // Any other chain named may be a test clock's: looked up (the resolver caches), refused once the clock is gone.
    const c =
      configured && !resolved.has(key) ? configured : id !== undefined && chainId !== undefined ? await resolve(livemode, id) : undefined;
    if (!c) throw new ChainModeNotConfiguredError(livemode, chainId);
    if (contractAddress === undefined || getAddress(contractAddress) === getAddress(c.mode.subscriptionManager)) return c;
    const manager = getAddress(contractAddress);
    const viewKey = `${livemode}:${id}:${manager}`;
    let view = views.get(viewKey);
    if (!view) {
      view = withBatcher({
        mode: { ...c.mode, subscriptionManager: manager },
        pub: c.pub,
        allowanceReads: c.allowanceReads,
        sender: c.sender,
      });
      views.set(viewKey, view);
    }
    return view;
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
    c.pub.readContract({
      address: c.mode.subscriptionManager,
      abi: subscriptionManagerAbi,
      functionName: 'isCharged',
      args: [id, periodIndex],
    });

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
    // Against the latest state (the operator's own queued transactions must not skew the estimate),
    // at the next block's time (a period may start between the latest block and now).
    const estimate = await estimateGasInNextBlock(
      c.pub,
      { from: c.sender.address, ...prepared.call },
      await nextBlockTime(c.pub, FRESH_CHAIN_TIME),
    );
    const sent = await c.sender.send({ purpose, ...prepared.call, gas: (estimate * 13n) / 10n });
    const settled = await c.sender.settle(sent);
    return settled.outcome === 'success' ? { receipt: settled.receipt } : { outcome: settled.outcome };
  }

  /**
   * A token refusal of a charge as a charge failure, with the blacklisted side read on the chain
   * (the subscription's subscriber and merchant). Undefined for reverts that are not one.
   */
  async function tokenRefusal(
    c: Clients,
    id: bigint,
    revert: { errorName: string; args: readonly unknown[] },
  ): Promise<{ code: ChargeFailure; reason: string } | undefined> {
    const refusal = classifyRevert(revert);
    if (!refusal) return undefined;
    const sub = await c.pub.readContract({
      address: c.mode.subscriptionManager,
      abi: subscriptionManagerAbi,
      functionName: 'getSubscription',
      args: [id],
    });
    const named = await nameBlacklistedSide(c.pub, sub.token, sub.subscriber, sub.merchant, refusal);
    if (!(CHARGE_FAILURES as readonly string[]).includes(named.code)) return undefined;
    return { code: named.code as ChargeFailure, reason: named.reason };
  }

  /** One period, one `charge` transaction (purpose per period): the path of a batch of one, and of refused batch items. */
  async function chargeOne(c: Clients, { id, periodIndex, amount }: BatchItem): Promise<ChargeResult> {
    const args = [id, periodIndex, amount] as const;
    const result = await sendFor<ChargeResult | 'already_charged'>(
      c,
      `charge:${c.mode.subscriptionManager}:${id}:${periodIndex}`,
      async () => {
        try {
          await callInNextBlock(
            c.pub,
            (blockOverrides) =>
              c.pub.simulateContract({
                account: c.sender.address,
                address: c.mode.subscriptionManager,
                abi: chargeAbi,
                functionName: 'charge',
                args,
                ...(blockOverrides ? { blockOverrides } : {}),
              }),
            FRESH_CHAIN_TIME,
          );
        } catch (error) {
          const revert = decodeContractRevert(error);
          if (!revert) throw error; // transport trouble: the activity retries
          const failure = REVERT_TO_FAILURE[revert.errorName];
          if (failure === 'already_charged') return { refused: 'already_charged' };
          if (!failure) {
            // The token's own refusal, surfaced by `charge` (blacklist, pause): named, never retried as is.
            const refusal = await tokenRefusal(c, id, revert);
            if (!refusal) throw error;
            return { refused: { ok: false, failure: refusal.code, reason: refusal.reason } };
          }
          const retryAt = periodStartsAt(revert);
          return { refused: { ok: false, failure, reason: describeRevert(revert), ...(retryAt ? { retryAt } : {}) } };
        }
        return {
          call: { to: c.mode.subscriptionManager, data: encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'charge', args }) },
        };
      },
    );
    if ('receipt' in result)
      return {
        ok: true,
        txHash: result.receipt.transactionHash,
        blockNumber: result.receipt.blockNumber.toString(),
        alreadyCharged: false,
      };
    if ('refused' in result) return result.refused === 'already_charged' ? existingCharge(c, id, periodIndex) : result.refused;
    // Reverted or dropped after a clean simulation: most likely another transaction charged the
    // period first, or the state moved. The next attempt simulates again.
    if (await isCharged(c, id, periodIndex)) return existingCharge(c, id, periodIndex);
    throw new Error(`the charge of period ${periodIndex} of subscription ${id} was ${result.outcome}; will simulate again on retry`);
  }

  function batchable(c: Clients): Promise<boolean> {
    c.batchable ??= c.pub.getCode({ address: c.mode.subscriptionManager }).then(
      (code) => code !== undefined && code.toLowerCase().includes(CHARGE_MANY_SELECTOR.slice(2)),
      (error: unknown) => {
        c.batchable = undefined; // read again on the next charge
        throw error;
      },
    );
    return c.batchable;
  }

  /**
   * The allowances to this manager of a mined batch's subscribers, keyed `token:owner`, read in one
   * round trip (one JSON-RPC batch) at the latest block, as the allowance note read each one after
   * its charge. A failed read yields none: each note then reads its own, as before.
   */
  async function allowancesAfter(c: Clients, items: BatchItem[]): Promise<Map<string, bigint>> {
    const pairs = new Map<string, { owner: Address; token: Address }>();
    for (const { allowanceOf } of items) if (allowanceOf) pairs.set(`${allowanceOf.token}:${allowanceOf.owner}`, allowanceOf);
    try {
      const read = await Promise.all(
        [...pairs].map(
          async ([key, { owner, token }]) =>
            [
              key,
              await c.allowanceReads.readContract({
                address: token,
                abi: fiatTokenAbi,
                functionName: 'allowance',
                args: [owner, c.mode.subscriptionManager],
              }),
            ] as const,
        ),
      );
      return new Map(read);
    } catch {
      return new Map();
    }
  }
  const allowanceKey = (i: BatchItem) => (i.allowanceOf ? `${i.allowanceOf.token}:${i.allowanceOf.owner}` : undefined);

  /**
   * One batch of the process's due charges: simulated together; the items the contract would charge
   * go out as one `chargeMany` transaction (purpose: the hash of its items, so an identical batch sent
   * again follows the first), each resolved from its own SubscriptionCharged / SubscriptionChargeFailed
   * log. An item the contract refuses, in the simulation or in the block, is handed to the one-period
   * path, which simulates it alone and reports the refusal by name exactly as before (or charges it,
   * when the state moved). A batch of one is a plain `charge`.
   */
  async function chargeBatch(c: Clients, items: BatchItem[]): Promise<PromiseSettledResult<ChargeResult>[]> {
    const settle = (work: () => Promise<ChargeResult>) =>
      work().then(
        (value): PromiseSettledResult<ChargeResult> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<ChargeResult> => ({ status: 'rejected', reason }),
      );
    // The same period twice in one batch (an activity retried while its first attempt still waits): one item, shared.
    const keyOf = (i: BatchItem) => `${i.id}:${i.periodIndex}`;
    const firsts = new Map<string, BatchItem>();
    for (const i of items) if (!firsts.has(keyOf(i))) firsts.set(keyOf(i), i);
    const unique = [...firsts.values()];
    const outcomes = new Map<string, Promise<PromiseSettledResult<ChargeResult>>>();
    const alone = (i: BatchItem) =>
      outcomes.set(
        keyOf(i),
        settle(() => chargeOne(c, i)),
      );

    let chargeable = unique;
    if (unique.length > 1) {
      const args = [unique.map((i) => i.id), unique.map((i) => i.periodIndex), unique.map((i) => i.amount)] as const;
      const { result: reasons } = await callInNextBlock(
        c.pub,
        (blockOverrides) =>
          c.pub.simulateContract({
            account: c.sender.address,
            address: c.mode.subscriptionManager,
            abi: subscriptionManagerAbi,
            functionName: 'chargeMany',
            args,
            ...(blockOverrides ? { blockOverrides } : {}),
          }),
        FRESH_CHAIN_TIME,
      );
      chargeable = unique.filter((_, n) => reasons[n] === '0x00000000');
      for (const [n, item] of unique.entries()) if (reasons[n] !== '0x00000000') alone(item);
    }
    if (chargeable.length === 1) alone(chargeable[0]!);
    else if (chargeable.length > 1) {
      const args = [chargeable.map((i) => i.id), chargeable.map((i) => i.periodIndex), chargeable.map((i) => i.amount)] as const;
      const purpose = `chargeMany:${c.mode.subscriptionManager}:${keccak256(encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint32[]' }, { type: 'uint256[]' }], args))}`;
      const batch = sendFor<never>(c, purpose, async () => ({
        call: {
          to: c.mode.subscriptionManager,
          data: encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'chargeMany', args }),
        },
      })).then(
        // The receipt's logs are parsed once for the whole batch, not once per item; so are the allowances read.
        async (result) => ({
          ok: true as const,
          result,
          outcomes: 'receipt' in result ? chargeManyOutcomes(c.mode.subscriptionManager, result.receipt.logs) : undefined,
          allowances: 'receipt' in result ? await allowancesAfter(c, chargeable) : new Map<string, bigint>(),
        }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      for (const item of chargeable) {
        outcomes.set(
          keyOf(item),
          settle(async () => {
            const sentBatch = await batch;
            if (!sentBatch.ok) throw sentBatch.error;
            const { result, outcomes: logged, allowances } = sentBatch;
            if ('receipt' in result && logged) {
              const receipt = result.receipt;
              const outcome = logged.get(keyOf(item));
              if (outcome === 'charged') {
                const key = allowanceKey(item);
                const allowance = key === undefined ? undefined : allowances.get(key);
                return {
                  ok: true,
                  txHash: receipt.transactionHash,
                  blockNumber: receipt.blockNumber.toString(),
                  alreadyCharged: false,
                  ...(allowance === undefined ? {} : { allowance: allowance.toString() }),
                };
              }
              if (outcome !== undefined && chargeFailureName(outcome) === 'PeriodAlreadyCharged')
                return existingCharge(c, item.id, item.periodIndex);
              // Refused in the block though the simulation passed (the state moved): the one-period path says why.
              if (outcome !== undefined) return chargeOne(c, item);
              throw new Error(
                `the batch ${receipt.transactionHash} has no outcome for period ${item.periodIndex} of subscription ${item.id}`,
              );
            }
            // The batch reverted as a whole or was dropped: what matters is whether this period is charged.
            if (await isCharged(c, item.id, item.periodIndex)) return existingCharge(c, item.id, item.periodIndex);
            throw new Error(
              `the batch charging period ${item.periodIndex} of subscription ${item.id} was ${'outcome' in result ? result.outcome : 'not sent'}; will retry`,
            );
          }),
        );
      }
    }
    return Promise.all(items.map((i) => outcomes.get(keyOf(i))!));
  }

  function windowed(c: Clients): Promise<boolean> {
    c.windowed ??= c.pub.getCode({ address: c.mode.subscriptionManager }).then(
      (code) => code !== undefined && code.toLowerCase().includes(CHARGE_WINDOW_SELECTOR.slice(2)),
      (error: unknown) => {
        c.windowed = undefined;
        throw error;
      },
    );
    return c.windowed;
  }

  return {
    async chargeWindow({ livemode, chainId, onChainId, contractAddress }) {
      const c = await get(livemode, contractAddress, chainId);
      if (!(await windowed(c))) return null;
      try {
        return await c.pub.readContract({
          address: c.mode.subscriptionManager,
          abi: subscriptionManagerV2Abi,
          functionName: 'chargeWindow',
          args: [BigInt(onChainId)],
        });
      } catch (error) {
        // An id the contract does not know reverts: no window to clamp to (the charge itself says why it failed).
        if (decodeContractRevert(error)) return null;
        throw error;
      }
    },

    async isCharged({ livemode, chainId, onChainId, periodIndex, contractAddress }) {
      return isCharged(await get(livemode, contractAddress, chainId), BigInt(onChainId), periodIndex);
    },

    async charge({ livemode, chainId, onChainId, periodIndex, amount, contractAddress, subscriber, token }) {
      const c = await get(livemode, contractAddress, chainId);
      const id = BigInt(onChainId);
      if (await isCharged(c, id, periodIndex)) return existingCharge(c, id, periodIndex);
      if (c.batcher && (await batchable(c))) {
        const allowanceOf = subscriber && token ? { owner: getAddress(subscriber), token: getAddress(token) } : undefined;
        return c.batcher.add({ id, periodIndex, amount: BigInt(amount), ...(allowanceOf ? { allowanceOf } : {}) });
      }
      return chargeOne(c, { id, periodIndex, amount: BigInt(amount) });
    },

    async cancel({ livemode, chainId, onChainId, contractAddress }) {
      const c = await get(livemode, contractAddress, chainId);
      const id = BigInt(onChainId);
      const cancelled = async () =>
        (
          await c.pub.readContract({
            address: c.mode.subscriptionManager,
            abi: subscriptionManagerAbi,
            functionName: 'getSubscription',
            args: [id],
          })
        ).cancelled;
      if (await cancelled()) return { txHash: null, alreadyCancelled: true };
      const result = await sendFor<'already_cancelled'>(c, `cancel:${c.mode.subscriptionManager}:${id}`, async () => {
        try {
          await c.pub.simulateContract({
            account: c.sender.address,
            address: c.mode.subscriptionManager,
            abi: subscriptionManagerAbi,
            functionName: 'cancel',
            args: [id],
          });
        } catch (error) {
          if (decodeContractRevert(error)?.errorName === 'SubscriptionIsCancelled') return { refused: 'already_cancelled' };
          throw error;
        }
        return {
          call: {
            to: c.mode.subscriptionManager,
            data: encodeFunctionData({ abi: subscriptionManagerAbi, functionName: 'cancel', args: [id] }),
          },
        };
      });
      if ('receipt' in result) return { txHash: result.receipt.transactionHash, alreadyCancelled: false };
      if ('refused' in result || (await cancelled())) return { txHash: null, alreadyCancelled: true };
      throw new Error(`the cancel of subscription ${id} was ${result.outcome}; will retry`);
    },

    async allowance({ livemode, chainId, token, owner, contractAddress }) {
      const c = await get(livemode, contractAddress, chainId);
      return c.pub.readContract({
        address: getAddress(token),
        abi: fiatTokenAbi,
        functionName: 'allowance',
        args: [getAddress(owner), c.mode.subscriptionManager],
      });
    },

    async permit({ livemode, chainId, token, owner, value, deadline, signature, contractAddress }) {
      const c = await get(livemode, contractAddress, chainId);
      // One transaction per signature: a retried activity follows (or finds) the one already sent.
      const purpose = `permit:${getAddress(token)}:${keccak256(signature)}`;
      const done = await c.sender.find(purpose);
      if (done?.outcome === 'success') {
        const receipt = await c.pub.getTransactionReceipt({ hash: done.transactionHash as Hex });
        return { ok: true, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber.toString() };
      }
      const { v, r, s } = splitSig(signature);
      const args = [getAddress(owner), c.mode.subscriptionManager, BigInt(value), BigInt(deadline), v, r, s] as const;
      const result = await sendFor<{ reason: string; code?: RefusalCode }>(c, purpose, async () => {
        try {
          await c.pub.simulateContract({
            account: c.sender.address,
            address: getAddress(token),
            abi: fiatTokenAbi,
            functionName: 'permit',
            args,
          });
        } catch (error) {
          const revert = decodeContractRevert(error);
          if (!revert) throw error;
          const refusal = classifyRevert(revert);
          if (!refusal) return { refused: { reason: describeRevert(revert) } };
          // The owner is the payer; the spender (SubscriptionManager) stands on the merchant's side.
          const named = await nameBlacklistedSide(c.pub, getAddress(token), getAddress(owner), c.mode.subscriptionManager, refusal);
          return { refused: { reason: named.reason, code: named.code } };
        }
        return { call: { to: getAddress(token), data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'permit', args }) } };
      });
      if ('receipt' in result)
        return { ok: true, txHash: result.receipt.transactionHash, blockNumber: result.receipt.blockNumber.toString() };
      if ('refused' in result) return { ok: false, ...result.refused };
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
