// How subscriptions meet the chain layer: the per-mode chain settings mapped
// onto the subscription chain port and contract modes, and the indexer hooks
// that turn confirmed SubscriptionCreated / SubscriptionCancelled / Transfer /
// Approval logs into the subscription entry points (each idempotent). Every chain of a mode is
// mapped (the indexer runs one per chain and calls these hooks from each): a log is read against
// the settings of the chain it came from.
import { type Address, type Hex, isAddressEqual } from 'viem';
import { publicClientFor } from '../chain/clients.js';
import { type ChainConfig, type ChainSettings, chainsOf, subscriptionManagersOf, subscriptionManagerV2Of } from '../chain/config.js';
import { subscriptionManagerV2Abi } from '../chain/generated/contracts.js';
import { hookPoints, type ChainEvent, type ChainHook } from '../indexer/hooks.js';
import type { SubscriptionChainMode } from './chain.js';
import {
  onSubscriptionCancelledOnChain,
  onSubscriptionCreatedOnChain,
  onTransferToSubscriber,
  type SubscriptionChainEventDeps,
  type SubscriptionContractMode,
} from './chain-events.js';

type Modes<T> = { test?: T[]; live?: T[] };

/** Each mode's chains mapped (a chain `map` leaves out is skipped); a mode with none is absent. */
function eachMode<T>(config: ChainConfig, map: (settings: ChainSettings) => T | undefined): Modes<T> {
  const out: Modes<T> = {};
  for (const livemode of [false, true]) {
    const mapped = chainsOf(config, livemode)
      .map(map)
      .filter((m): m is T => m !== undefined);
    if (mapped.length > 0) out[livemode ? 'live' : 'test'] = mapped;
  }
  return out;
}

/** A chain's operator side (none without an operator key: such a chain cannot charge). */
export function subscriptionChainModeOf(s: ChainSettings): SubscriptionChainMode | undefined {
  return s.operatorKey
    ? {
        rpcUrl: s.rpcUrl,
        operatorKey: s.operatorKey,
        subscriptionManager: s.subscriptionManager,
        fromBlock: s.startBlock,
        pollingIntervalMs: s.pollIntervalMs,
        stuckAfterSeconds: s.stuckAfterSeconds,
        ...(s.rpcTimeoutMs !== undefined ? { rpcTimeoutMs: s.rpcTimeoutMs } : {}),
        ...(s.rpcRetryCount !== undefined ? { rpcRetryCount: s.rpcRetryCount } : {}),
      }
    : undefined;
}

/** The operator side of each configured chain, per mode (chains without an operator key cannot charge). */
export function subscriptionChainModes(config: ChainConfig): Modes<SubscriptionChainMode> {
  return eachMode(config, subscriptionChainModeOf);
}

/** What an enrolment must name on each chain of each mode to be this service's. */
export function subscriptionContractModes(config: ChainConfig): Modes<SubscriptionContractMode> {
  return eachMode(config, (s) =>
    s.operator
      ? {
          chainId: s.chainId,
          subscriptionManagers: subscriptionManagersOf(s),
          subscriptionManagerV2: subscriptionManagerV2Of(s),
          token: s.token,
          operator: s.operator,
        }
      : undefined,
  );
}

const big = (value: string | number | boolean | undefined) => BigInt(String(value ?? 0));

export function subscriptionIndexerHooks(
  config: ChainConfig,
  deps: Omit<SubscriptionChainEventDeps, 'modes' | 'temporal'> & { temporal?: SubscriptionChainEventDeps['temporal'] },
): ChainHook[] {
  const modes = subscriptionContractModes(config);
  const withTemporal = (context: { temporal?: SubscriptionChainEventDeps['temporal'] }): SubscriptionChainEventDeps => {
    const temporal = context.temporal ?? deps.temporal;
    if (!temporal) throw new Error('subscription hooks need a Temporal client');
    return { ...deps, temporal, modes };
  };
  // The chain the log came from (an event of a chain this configuration does not have is nobody's).
  const settingsOf = (event: ChainEvent) => chainsOf(config, event.livemode).find((s) => s.chainId === event.chainId);

  return [
    hookPoints.subscriptionCreated('subscriptions.created', async (event, context) => {
      const settings = settingsOf(event);
      if (!settings) return;
      const client = publicClientFor(settings);
      const block = await client.getBlock({ blockNumber: event.blockNumber });
      const a = event.args;
      // v2's SubscriptionCreated does not carry the window; the subscription's is read as of its block.
      const chargeWindow = isAddressEqual(event.address as Address, subscriptionManagerV2Of(settings))
        ? await client.readContract({
            address: event.address as Address,
            abi: subscriptionManagerV2Abi,
            functionName: 'chargeWindow',
            args: [big(a.id)],
            blockNumber: event.blockNumber,
          })
        : undefined;
      await onSubscriptionCreatedOnChain(withTemporal(context), {
        livemode: event.livemode,
        chainId: event.chainId,
        address: event.address,
        transactionHash: event.transactionHash as Hex,
        blockTimestamp: block.timestamp,
        args: {
          id: big(a.id),
          subscriber: a.subscriber as Address,
          merchant: a.merchant as Address,
          token: a.token as Address,
          amount: big(a.amount),
          period: big(a.period),
          periods: Number(a.periods),
          firstPeriodStart: big(a.firstPeriodStart),
          operator: a.operator as Address,
        },
        ...(chargeWindow !== undefined ? { chargeWindow } : {}),
      });
    }),
    hookPoints.subscriptionCancelled('subscriptions.cancelled', async (event, context) => {
      await onSubscriptionCancelledOnChain(withTemporal(context), {
        livemode: event.livemode,
        chainId: event.chainId,
        address: event.address,
        args: { id: big(event.args.id), by: event.args.by as Address },
      });
    }),
    hookPoints.transferTo('subscriptions.top-up', async (event, context) => {
      await onTransferToSubscriber(withTemporal(context), {
        livemode: event.livemode,
        chainId: event.chainId,
        to: event.args.to as Address,
      });
    }),
    // A subscriber re-approving the SubscriptionManager (e.g. after the allowance signed at
    // enrolment ran out) is a top-up too: an at_risk charge refused for allowance retries now.
    hookPoints.approval('subscriptions.allowance', async (event, context) => {
      const settings = settingsOf(event);
      if (!settings || !subscriptionManagersOf(settings).some((m) => isAddressEqual(event.args.spender as Address, m))) return;
      await onTransferToSubscriber(withTemporal(context), {
        livemode: event.livemode,
        chainId: event.chainId,
        to: event.args.owner as Address,
      });
    }),
  ];
}
