// The hook registry: how later features react to chain events. The indexer
// calls every matching hook for each confirmed event, in chain order, after
// the event is committed, until all succeed (at least once). A hook must be
// idempotent: it starts or signals workflows with deterministic ids (from the
// event's chain id, transaction hash and log index, or the on-chain object id),
// so a second call has no effect.
import type { Client } from '@temporalio/client';
export { startWorkflowOnce } from '../temporal/start-once.js';
import type { Address } from 'viem';

export type ChainContract = 'token' | 'subscriptionManager' | 'escrow';

/** One confirmed contract event, as hooks see it (integers as decimal strings). */
export type ChainEvent = {
  chainId: number;
  livemode: boolean;
  contract: ChainContract;
  address: Address;
  eventName: string;
  args: Record<string, string | number | boolean>;
  blockNumber: bigint;
  blockHash: string;
  transactionHash: string;
  logIndex: number;
};

export type HookContext = { temporal?: Client };

export type ChainHook = {
  /** For logs. */
  name: string;
  matches: (event: ChainEvent) => boolean;
  handle: (event: ChainEvent, context: HookContext) => Promise<void>;
  /** Optional: a reorg removed an event `handle` had seen (called at least once; must be idempotent too). */
  unwind?: (event: ChainEvent, context: HookContext) => Promise<void>;
};

/** A key naming one log for ever: use it (or the on-chain object id) in workflow ids. */
export function chainEventKey(event: Pick<ChainEvent, 'chainId' | 'transactionHash' | 'logIndex'>): string {
  return `${event.chainId}_${event.transactionHash.toLowerCase()}_${event.logIndex}`;
}

export const ESCROW_JOB_EVENTS = [
  'JobCreated',
  'ProviderSet',
  'BudgetSet',
  'JobFunded',
  'JobSubmitted',
  'JobCompleted',
  'JobRejected',
  'JobExpired',
  'PaymentReleased',
  'Refunded',
] as const;

const is =
  (contract: ChainContract, ...names: string[]) =>
  (e: ChainEvent) =>
    e.contract === contract && names.includes(e.eventName);

/** The hook points later issues plug into. */
export const hookPoints = {
  subscriptionCreated: (name: string, handle: ChainHook['handle']): ChainHook => ({
    name,
    matches: is('subscriptionManager', 'SubscriptionCreated'),
    handle,
  }),
  subscriptionCharged: (name: string, handle: ChainHook['handle']): ChainHook => ({
    name,
    matches: is('subscriptionManager', 'SubscriptionCharged'),
    handle,
  }),
  subscriptionCancelled: (name: string, handle: ChainHook['handle']): ChainHook => ({
    name,
    matches: is('subscriptionManager', 'SubscriptionCancelled'),
    handle,
  }),
  /** A token Transfer into `recipient(event)` (payment sessions: a transfer that pays a session's address). */
  transferTo: (name: string, handle: ChainHook['handle'], unwind?: ChainHook['unwind']): ChainHook => ({
    name,
    matches: is('token', 'Transfer'),
    handle,
    ...(unwind ? { unwind } : {}),
  }),
  /** A token Approval (an `approve` or an EIP-2612 `permit`): `owner` grants `spender` an allowance. */
  approval: (name: string, handle: ChainHook['handle']): ChainHook => ({ name, matches: is('token', 'Approval'), handle }),
  /** EIP-3009 AuthorizationUsed (the relay's payments; pairs with the Transfer of the same transaction). */
  authorizationUsed: (name: string, handle: ChainHook['handle']): ChainHook => ({
    name,
    matches: is('token', 'AuthorizationUsed'),
    handle,
  }),
  escrowJob: (name: string, handle: ChainHook['handle']): ChainHook => ({ name, matches: is('escrow', ...ESCROW_JOB_EVENTS), handle }),
};

export type HookRegistry = {
  register: (hook: ChainHook) => void;
  matching: (event: ChainEvent) => ChainHook[];
  all: () => readonly ChainHook[];
};

export function createHookRegistry(initial: readonly ChainHook[] = []): HookRegistry {
  const hooks: ChainHook[] = [...initial];
  return {
    register: (hook) => void hooks.push(hook),
    matching: (event) => hooks.filter((h) => h.matches(event)),
    all: () => hooks,
  };
}
