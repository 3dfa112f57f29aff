// Batching of on-chain subscription charges inside one worker process.
//
// Each chargeOnChain activity hands its period to the batcher of its chain mode (one
// SubscriptionManager, one operator). The batcher collects charges for a short window (or
// until a batch is full) and flushes them together: src/subscriptions/chain.ts then sends one
// `chargeMany` transaction per batch and resolves every caller with its own item's outcome.
// The batcher only groups and schedules; it holds nothing that must survive the process: a
// worker killed mid-batch leaves each activity to be retried, and the retry finds its period's
// outcome on-chain (isCharged, the SubscriptionCharged log) before it sends anything.
import { type Hex, toFunctionSelector } from 'viem';
import { subscriptionManagerAbi, subscriptionManagerV2Abi } from '../chain/generated/contracts.js';

export type ChargeBatchOptions = {
  /** How long the first charge of a batch waits for others (ms). */
  windowMs: number;
  /** A batch this full is flushed at once. */
  maxItems: number;
};

/** Defaults: a quarter of a second, at most 100 charges (a few million gas) per transaction. */
export const DEFAULT_CHARGE_BATCH: ChargeBatchOptions = { windowMs: 250, maxItems: 100 };

type Pending<I, R> = { item: I; resolve: (result: R) => void; reject: (error: unknown) => void };

export type Batcher<I, R> = {
  add(item: I): Promise<R>;
  /** Items waiting for the next flush (tests, metrics). */
  readonly waiting: number;
};

/**
 * Collects items and calls `flush` with up to `maxItems` of them, `windowMs` after the first one
 * arrived or as soon as the batch is full. Batches are flushed concurrently: a slow one (a
 * transaction waiting for its block) does not hold back the next. `flush` returns one settled
 * outcome per item, in order; a `flush` that throws rejects every item of its batch.
 */
export function createBatcher<I, R>(options: ChargeBatchOptions, flush: (items: I[]) => Promise<PromiseSettledResult<R>[]>): Batcher<I, R> {
  let queue: Pending<I, R>[] = [];
  let timer: NodeJS.Timeout | undefined;

  const run = (batch: Pending<I, R>[]) => {
    flush(batch.map((p) => p.item)).then(
      (results) =>
        batch.forEach((p, i) => {
          const r = results[i];
          if (!r) p.reject(new Error('the batch returned no outcome for this item'));
          else if (r.status === 'fulfilled') p.resolve(r.value);
          else p.reject(r.reason);
        }),
      (error: unknown) => batch.forEach((p) => p.reject(error)),
    );
  };

  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const batch = queue.slice(0, options.maxItems);
      queue = queue.slice(options.maxItems);
      run(batch);
    }
  };

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= options.maxItems) flushNow();
        else timer ??= setTimeout(flushNow, options.windowMs);
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}

// Both versions' errors: v2 (contracts/SubscriptionManagerV2.sol) adds ChargeWindowClosed and BatchGasTooLow.
const ERROR_SELECTORS = new Map<Hex, string>(
  [...subscriptionManagerAbi, ...subscriptionManagerV2Abi]
    .filter((item) => item.type === 'error')
    .map((item) => [toFunctionSelector(`${item.name}(${item.inputs.map((i) => i.type).join(',')})`), item.name] as const),
);

/** The error name behind a `SubscriptionChargeFailed` reason (a custom error's selector), or undefined. */
export function chargeFailureName(reason: Hex): string | undefined {
  return ERROR_SELECTORS.get(reason.toLowerCase() as Hex);
}

/** The `SubscriptionChargeFailed` reason for a custom error of SubscriptionManager. */
export function chargeFailureSelector(errorName: string): Hex {
  for (const [selector, name] of ERROR_SELECTORS) if (name === errorName) return selector;
  throw new Error(`SubscriptionManager has no error ${errorName}`);
}

/** chargeMany's selector, looked for in a deployed contract's code (a contract deployed before it has none). */
export const CHARGE_MANY_SELECTOR = toFunctionSelector('chargeMany(uint256[],uint32[],uint256[])');
