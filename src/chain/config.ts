// Chain settings per mode. A request's mode (its key's livemode) selects the
// settings: a live request never touches the test chain and the reverse.
//
// Environment, per mode (MODE = TEST or LIVE):
//   CHAIN_<MODE>_RPC_URL                       JSON-RPC endpoint (test: CHAIN_RPC_URL is a shortcut)
//   CHAIN_<MODE>_PRESET                        a known chain by name or id (src/chain/presets.ts): defaults for
//                                              the chain id, token (Circle's USDC), confirmations and poll interval
//   CHAIN_<MODE>_CHAIN_ID                      expected chain id (checked against the node by the indexer)
//   CHAIN_<MODE>_TOKEN_ADDRESS                 the USDC(-like) token
//   CHAIN_<MODE>_SUBSCRIPTION_MANAGER_ADDRESS  the SubscriptionManager (version 1: subscriptions enrolled on it keep it)
//   CHAIN_<MODE>_SUBSCRIPTION_MANAGER_V2_ADDRESS  SubscriptionManagerV2 (charge windows; default: its CREATE2 address,
//                                              the same on every chain; contracts:deploy puts it there). The indexer
//                                              reads both managers; each subscription is charged on its own.
//   CHAIN_<MODE>_ESCROW_ADDRESS                the ERC-8183 escrow
//   CHAIN_<MODE>_DEPOSIT_FACTORY_ADDRESS       the factory of payment sessions' deposit addresses (default: its
//                                              CREATE2 address, the same on every chain; contracts:deploy puts it there)
//   CHAIN_<MODE>_YIELD_VAULT_ADDRESS           optional: the ERC-4626 vault of the agents' autoConvertToYield
//                                              (test default: the dev vault, DEV_YIELD_VAULT_ADDRESS)
//   CHAIN_<MODE>_CONFIRMATIONS                 blocks (including the one holding it) before an event or a
//                                              relayed transaction counts (test default 1, live default 12)
//   CHAIN_<MODE>_RELAYER_KEY                   private key paying gas for relayed submissions
//   CHAIN_<MODE>_OPERATOR_KEY                  private key of the subscription operator (charges)
//   CHAIN_<MODE>_START_BLOCK                   first block the indexer reads (default 0)
//   CHAIN_<MODE>_STUCK_AFTER_SECONDS           an unmined relayed transaction is replaced with a higher fee after this
//   CHAIN_<MODE>_RPC_TIMEOUT_MS                how long one JSON-RPC request may wait for the node's answer (default 5000)
//   CHAIN_<MODE>_RPC_RETRY_COUNT               retries of a request that failed or timed out (default 1)
// Test mode, when its RPC URL is set, defaults the contract addresses to the deterministic dev
// deployment (src/chain/test-mode-defaults.ts) and the keys to anvil's public dev accounts. Live mode has no
// defaults: without CHAIN_LIVE_RPC_URL and the three addresses it is simply not configured.
// A preset names a real chain, so a mode with one gets no dev defaults; every explicit variable wins over
// the preset, except a chain id that contradicts it, which is refused.
import { type Address, type Hex, getAddress, isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { InvalidRequestError } from '../errors.js';
import { DEPOSIT_FACTORY_ADDRESS } from './deposits/deposit-contracts.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from './deposits/deposit-contracts-v2.js';
import { SUBSCRIPTION_MANAGER_V2_ADDRESS } from './subscription-manager-v2.js';
import { type ChainPreset, describeChainPresets, findChainPreset } from './presets.js';
import { DEV_YIELD_VAULT_ADDRESS, predictContractAddresses, TEST_MODE_DEFAULTS } from './test-mode-defaults.js';

export type ChainMode = 'test' | 'live';

export type ChainSettings = {
  mode: ChainMode;
  livemode: boolean;
  rpcUrl: string;
  chainId: number;
  token: Address;
  /** The version 1 SubscriptionManager (contracts/SubscriptionManager.sol). */
  subscriptionManager: Address;
  /** SubscriptionManagerV2 (contracts/SubscriptionManagerV2.sol); absent: SUBSCRIPTION_MANAGER_V2_ADDRESS. */
  subscriptionManagerV2?: Address;
  escrow: Address;
  /** The version 1 factory of deposit addresses (contracts/DepositForwarder.sol: sessions created before v2); absent: DEPOSIT_FACTORY_ADDRESS. */
  depositFactory?: Address;
  /** The version 2 factory (contracts/DepositForwarderV2.sol: new sessions); absent: DEPOSIT_FACTORY_V2_ADDRESS. */
  depositFactoryV2?: Address;
  /** How long a deposit whose payout the token refuses waits before the payout is looked at again; absent: an hour. */
  sweepRecheckSeconds?: number;
  /** The ERC-4626 vault agent wallets park idle funds in (docs/agents.md, Cashflow); absent: no yield in this mode. */
  yieldVault?: Address;
  confirmations: number;
  /** Absent: the relay answers that relaying is not configured for this mode. */
  relayerKey?: Hex;
  operatorKey?: Hex;
  /** Address of the operator every enrolment must name (from the operator key, or set directly). */
  operator?: Address;
  startBlock: bigint;
  stuckAfterSeconds: number;
  /** How often the indexer and the relay poll the node (ms). */
  pollIntervalMs: number;
  /** Bound on one JSON-RPC request (ms); absent: DEFAULT_RPC_BOUNDS. */
  rpcTimeoutMs?: number;
  /** Retries of a failed or timed-out request; absent: DEFAULT_RPC_BOUNDS. */
  rpcRetryCount?: number;
};

/**
 * A node that accepts connections and never answers must not hold a chain call for long: the
 * activity fails fast and Temporal retries it, a request answers 503. Worst case per call:
 * timeoutMs x (retryCount + 1), plus viem's short backoff between tries (about 10 s by default).
 */
export const DEFAULT_RPC_BOUNDS = { timeoutMs: 5_000, retryCount: 1 } as const;

export type ChainConfig = { test?: ChainSettings; live?: ChainSettings };

export function modeOf(livemode: boolean): ChainMode {
  return livemode ? 'live' : 'test';
}

function readAddress(env: NodeJS.ProcessEnv, name: string, fallback?: Address): Address | undefined {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!isAddress(value, { strict: false })) throw new Error(`Invalid configuration: ${name} is not an address`);
  return getAddress(value);
}

function readKey(env: NodeJS.ProcessEnv, name: string, fallback?: Hex): Hex | undefined {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new Error(`Invalid configuration: ${name} is not a 32-byte hex private key`);
  return value as Hex;
}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Invalid configuration: ${name} must be a non-negative integer`);
  return n;
}

function readPreset(env: NodeJS.ProcessEnv, name: string): ChainPreset | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const preset = findChainPreset(value);
  if (!preset) throw new Error(`Invalid configuration: ${name}=${value} is not a known chain (${describeChainPresets()})`);
  return preset;
}

function loadMode(env: NodeJS.ProcessEnv, mode: ChainMode): ChainSettings | undefined {
  const P = `CHAIN_${mode.toUpperCase()}_`;
  const rpcUrl = env[`${P}RPC_URL`] || (mode === 'test' ? env.CHAIN_RPC_URL : undefined);
  if (!rpcUrl) return undefined;
  const preset = readPreset(env, `${P}PRESET`);
  // The dev chain's defaults (contracts, anvil's public keys) only where no real chain is named.
  const devDefaults = mode === 'test' && !preset;
  const dev = devDefaults ? predictContractAddresses(TEST_MODE_DEFAULTS.deployer) : undefined;
  const token = readAddress(env, `${P}TOKEN_ADDRESS`, preset?.usdc ?? dev?.token);
  const subscriptionManager = readAddress(env, `${P}SUBSCRIPTION_MANAGER_ADDRESS`, dev?.subscriptionManager);
  const escrow = readAddress(env, `${P}ESCROW_ADDRESS`, dev?.escrow);
  if (!token || !subscriptionManager || !escrow) {
    throw new Error(
      `Invalid configuration: ${P}RPC_URL is set but ${P}TOKEN_ADDRESS, ${P}SUBSCRIPTION_MANAGER_ADDRESS or ${P}ESCROW_ADDRESS is missing`,
    );
  }
  const chainId = readInt(env, `${P}CHAIN_ID`, preset?.chainId ?? (mode === 'test' ? 31337 : 0));
  if (preset && chainId !== preset.chainId) {
    throw new Error(`Invalid configuration: ${P}CHAIN_ID=${chainId} contradicts ${P}PRESET=${preset.name} (chain id ${preset.chainId})`);
  }
  const subscriptionManagerV2 = readAddress(env, `${P}SUBSCRIPTION_MANAGER_V2_ADDRESS`);
  const depositFactory = readAddress(env, `${P}DEPOSIT_FACTORY_ADDRESS`);
  const depositFactoryV2 = readAddress(env, `${P}DEPOSIT_FACTORY_V2_ADDRESS`);
  const yieldVault = readAddress(env, `${P}YIELD_VAULT_ADDRESS`, devDefaults ? DEV_YIELD_VAULT_ADDRESS : undefined);
  const relayerKey = readKey(env, `${P}RELAYER_KEY`, devDefaults ? TEST_MODE_DEFAULTS.relayerKey : undefined);
  const operatorKey = readKey(env, `${P}OPERATOR_KEY`, devDefaults ? TEST_MODE_DEFAULTS.operatorKey : undefined);
  const operator = readAddress(env, `${P}OPERATOR_ADDRESS`, operatorKey ? privateKeyToAccount(operatorKey).address : undefined);
  return {
    mode,
    livemode: mode === 'live',
    rpcUrl,
    chainId,
    token,
    subscriptionManager,
    ...(subscriptionManagerV2 ? { subscriptionManagerV2 } : {}),
    escrow,
    ...(depositFactory ? { depositFactory } : {}),
    ...(depositFactoryV2 ? { depositFactoryV2 } : {}),
    sweepRecheckSeconds: Math.max(1, readInt(env, `${P}SWEEP_RECHECK_SECONDS`, mode === 'test' ? 60 : 3600)),
    ...(yieldVault ? { yieldVault } : {}),
    confirmations: Math.max(1, readInt(env, `${P}CONFIRMATIONS`, preset?.confirmations ?? (mode === 'test' ? 1 : 12))),
    ...(relayerKey ? { relayerKey } : {}),
    ...(operatorKey ? { operatorKey } : {}),
    ...(operator ? { operator } : {}),
    startBlock: BigInt(readInt(env, `${P}START_BLOCK`, 0)),
    stuckAfterSeconds: readInt(env, `${P}STUCK_AFTER_SECONDS`, mode === 'test' ? 15 : 120),
    pollIntervalMs: readInt(env, `${P}POLL_INTERVAL_MS`, preset?.pollIntervalMs ?? (mode === 'test' ? 200 : 2000)),
    rpcTimeoutMs: Math.max(1, readInt(env, `${P}RPC_TIMEOUT_MS`, DEFAULT_RPC_BOUNDS.timeoutMs)),
    rpcRetryCount: readInt(env, `${P}RPC_RETRY_COUNT`, DEFAULT_RPC_BOUNDS.retryCount),
  };
}

/**
 * Test and live mode never share a chain id. The indexer's event records are unique per chain, block and
 * log, without the mode, so on one chain the two modes' indexers would each drop the events the other
 * stored first (and a test payment could count as a live one). Test mode belongs on a testnet or a dev chain.
 */
function refuseSharedChain(test: ChainSettings, live: ChainSettings): void {
  if (test.chainId !== live.chainId) return;
  throw new Error(
    `Invalid configuration: test and live mode are both on chain id ${live.chainId} (CHAIN_TEST_* and CHAIN_LIVE_*). ` +
      'Each mode needs a chain of its own: point test mode at a testnet or a dev chain (for example CHAIN_TEST_PRESET=base-sepolia), or leave it unset.',
  );
}

export function loadChainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const test = loadMode(env, 'test');
  const live = loadMode(env, 'live');
  if (live && live.chainId === 0)
    throw new Error('Invalid configuration: CHAIN_LIVE_CHAIN_ID (or CHAIN_LIVE_PRESET) is required with CHAIN_LIVE_RPC_URL');
  if (test && live) refuseSharedChain(test, live);
  return { ...(test ? { test } : {}), ...(live ? { live } : {}) };
}

/** Where this mode's deposit addresses of a factory version come from (version 1 unless named). */
export function depositFactoryOf(settings: ChainSettings, version: 1 | 2 = 1): Address {
  return version === 2 ? (settings.depositFactoryV2 ?? DEPOSIT_FACTORY_V2_ADDRESS) : (settings.depositFactory ?? DEPOSIT_FACTORY_ADDRESS);
}

/** This mode's SubscriptionManagerV2. */
export function subscriptionManagerV2Of(settings: ChainSettings): Address {
  return settings.subscriptionManagerV2 ?? SUBSCRIPTION_MANAGER_V2_ADDRESS;
}

/** Every SubscriptionManager of this mode whose events the indexer reads and whose subscriptions it charges (v1, v2). */
export function subscriptionManagersOf(settings: ChainSettings): Address[] {
  const v2 = subscriptionManagerV2Of(settings);
  return getAddress(v2) === getAddress(settings.subscriptionManager) ? [settings.subscriptionManager] : [settings.subscriptionManager, v2];
}

/** The settings a request's mode selects; a mode without configuration is a clear client error, not a 500. */
export function chainFor(config: ChainConfig, livemode: boolean): ChainSettings {
  const settings = livemode ? config.live : config.test;
  if (!settings) {
    throw new InvalidRequestError(
      `${livemode ? 'Live' : 'Test'} mode has no chain configured on this deployment; chain operations are unavailable in this mode.`,
      { param: 'livemode' },
    );
  }
  return settings;
}
