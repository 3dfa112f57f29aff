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
//   CHAIN_<MODE>_CHAINS                        further chains of the mode, comma-separated presets or chain ids
//                                              (e.g. `arbitrum,ethereum`). Each reads the variables above under
//                                              CHAIN_<MODE>_<NAME>_ (CHAIN_LIVE_ARBITRUM_RPC_URL, required), and
//                                              takes from the mode's first chain what is the same on every chain
//                                              when unset: contract addresses (CREATE2), keys, timings. Its token
//                                              and chain id come from the preset (or its own variables).
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
  /**
   * The prefix of this chain's variables (CHAIN_TEST_, CHAIN_LIVE_ARBITRUM_), so a start-up refusal names the
   * variable to fix (src/chain/chain-check.ts); absent in settings built in code: CHAIN_<MODE>_.
   */
  variablePrefix?: string;
};

/**
 * A node that accepts connections and never answers must not hold a chain call for long: the
 * activity fails fast and Temporal retries it, a request answers 503. Worst case per call:
 * timeoutMs x (retryCount + 1), plus viem's short backoff between tries (about 10 s by default).
 */
export const DEFAULT_RPC_BOUNDS = { timeoutMs: 5_000, retryCount: 1 } as const;

/**
 * Every chain of each mode. `test` and `live` are each mode's first chain (CHAIN_<MODE>_*): where an object
 * that names no chain belongs (everything created before a mode had several chains) and the default of a new
 * one. `others` are the mode's further chains (CHAIN_<MODE>_CHAINS), in configuration order.
 */
export type ChainConfig = {
  test?: ChainSettings;
  live?: ChainSettings;
  others?: { test?: ChainSettings[]; live?: ChainSettings[] };
};

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

/**
 * One chain's settings from the variables under `P` (CHAIN_<MODE>_ for a mode's first chain,
 * CHAIN_<MODE>_<NAME>_ for a further one). A further chain inherits from the mode's first chain what is the
 * same on every chain (the CREATE2 contract addresses, the keys, the timings) unless its own variables say
 * otherwise, and takes its chain id and token from its entry in CHAIN_<MODE>_CHAINS (a preset or a chain id).
 */
function loadChain(
  env: NodeJS.ProcessEnv,
  mode: ChainMode,
  P: string,
  further?: { first: ChainSettings; entry: string },
): ChainSettings | undefined {
  const rpcUrl = env[`${P}RPC_URL`] || (mode === 'test' && !further ? env.CHAIN_RPC_URL : undefined);
  if (!rpcUrl) {
    if (further)
      throw new Error(`Invalid configuration: CHAIN_${mode.toUpperCase()}_CHAINS names ${further.entry} but ${P}RPC_URL is not set`);
    return undefined;
  }
  const preset = readPreset(env, `${P}PRESET`) ?? (further ? findChainPreset(further.entry) : undefined);
  const first = further?.first;
  const entryId = further && /^[0-9]+$/.test(further.entry) ? Number(further.entry) : undefined;
  const chainId = readInt(env, `${P}CHAIN_ID`, preset?.chainId ?? entryId ?? (mode === 'test' && !further ? 31337 : 0));
  if (preset && chainId !== preset.chainId) {
    throw new Error(`Invalid configuration: ${P}CHAIN_ID=${chainId} contradicts ${P}PRESET=${preset.name} (chain id ${preset.chainId})`);
  }
  if (further && chainId === 0) {
    throw new Error(
      `Invalid configuration: ${further.entry} in CHAIN_${mode.toUpperCase()}_CHAINS is not a known chain (${describeChainPresets()}); name a preset, a chain id, or set ${P}CHAIN_ID`,
    );
  }
  // The dev chain's defaults (contracts, anvil's public keys) only where no real chain is named.
  const devDefaults = mode === 'test' && !preset && (!first || first.token === predictContractAddresses(TEST_MODE_DEFAULTS.deployer).token);
  const dev = devDefaults ? predictContractAddresses(TEST_MODE_DEFAULTS.deployer) : undefined;
  const token = readAddress(env, `${P}TOKEN_ADDRESS`, preset?.usdc ?? dev?.token);
  const subscriptionManager = readAddress(env, `${P}SUBSCRIPTION_MANAGER_ADDRESS`, first?.subscriptionManager ?? dev?.subscriptionManager);
  const escrow = readAddress(env, `${P}ESCROW_ADDRESS`, first?.escrow ?? dev?.escrow);
  if (!token || !subscriptionManager || !escrow) {
    throw new Error(
      `Invalid configuration: ${P}RPC_URL is set but ${P}TOKEN_ADDRESS, ${P}SUBSCRIPTION_MANAGER_ADDRESS or ${P}ESCROW_ADDRESS is missing`,
    );
  }
  const subscriptionManagerV2 = readAddress(env, `${P}SUBSCRIPTION_MANAGER_V2_ADDRESS`, first?.subscriptionManagerV2);
  const depositFactory = readAddress(env, `${P}DEPOSIT_FACTORY_ADDRESS`, first?.depositFactory);
  const depositFactoryV2 = readAddress(env, `${P}DEPOSIT_FACTORY_V2_ADDRESS`, first?.depositFactoryV2);
  // A vault is one chain's contract: a further chain has one only where its own variable names it (or on a dev chain).
  const yieldVault = readAddress(env, `${P}YIELD_VAULT_ADDRESS`, devDefaults ? DEV_YIELD_VAULT_ADDRESS : undefined);
  const relayerKey = readKey(env, `${P}RELAYER_KEY`, first?.relayerKey ?? (devDefaults ? TEST_MODE_DEFAULTS.relayerKey : undefined));
  const operatorKey = readKey(env, `${P}OPERATOR_KEY`, first?.operatorKey ?? (devDefaults ? TEST_MODE_DEFAULTS.operatorKey : undefined));
  const operator = readAddress(env, `${P}OPERATOR_ADDRESS`, operatorKey ? privateKeyToAccount(operatorKey).address : first?.operator);
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
    sweepRecheckSeconds: Math.max(
      1,
      readInt(env, `${P}SWEEP_RECHECK_SECONDS`, first?.sweepRecheckSeconds ?? (mode === 'test' ? 60 : 3600)),
    ),
    ...(yieldVault ? { yieldVault } : {}),
    confirmations: Math.max(
      1,
      readInt(env, `${P}CONFIRMATIONS`, preset?.confirmations ?? first?.confirmations ?? (mode === 'test' ? 1 : 12)),
    ),
    ...(relayerKey ? { relayerKey } : {}),
    ...(operatorKey ? { operatorKey } : {}),
    ...(operator ? { operator } : {}),
    startBlock: BigInt(readInt(env, `${P}START_BLOCK`, 0)),
    stuckAfterSeconds: readInt(env, `${P}STUCK_AFTER_SECONDS`, first?.stuckAfterSeconds ?? (mode === 'test' ? 15 : 120)),
    pollIntervalMs: readInt(env, `${P}POLL_INTERVAL_MS`, preset?.pollIntervalMs ?? first?.pollIntervalMs ?? (mode === 'test' ? 200 : 2000)),
    rpcTimeoutMs: Math.max(1, readInt(env, `${P}RPC_TIMEOUT_MS`, first?.rpcTimeoutMs ?? DEFAULT_RPC_BOUNDS.timeoutMs)),
    rpcRetryCount: readInt(env, `${P}RPC_RETRY_COUNT`, first?.rpcRetryCount ?? DEFAULT_RPC_BOUNDS.retryCount),
    variablePrefix: P,
  };
}

/** The variable prefix of a further chain: `base-sepolia` in test mode reads CHAIN_TEST_BASE_SEPOLIA_*. */
export function furtherChainPrefix(mode: ChainMode, entry: string): string {
  return `CHAIN_${mode.toUpperCase()}_${entry.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_`;
}

/** A mode's chains: its first (CHAIN_<MODE>_*), then each entry of CHAIN_<MODE>_CHAINS. */
function loadMode(env: NodeJS.ProcessEnv, mode: ChainMode): ChainSettings[] {
  const first = loadChain(env, mode, `CHAIN_${mode.toUpperCase()}_`);
  const entries = (env[`CHAIN_${mode.toUpperCase()}_CHAINS`] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (!first) {
    if (entries.length > 0)
      throw new Error(
        `Invalid configuration: CHAIN_${mode.toUpperCase()}_CHAINS is set but the mode's first chain (CHAIN_${mode.toUpperCase()}_RPC_URL) is not`,
      );
    return [];
  }
  return [first, ...entries.map((entry) => loadChain(env, mode, furtherChainPrefix(mode, entry), { first, entry })!)];
}

/**
 * No two configured chains share a chain id. The indexer's event records are unique per chain, block and
 * log, without the mode, so on one chain the two modes' indexers would each drop the events the other
 * stored first (and a test payment could count as a live one); within a mode, two entries for one chain
 * would follow it twice. Test mode belongs on a testnet or a dev chain.
 */
function refuseSharedChainIds(chains: ChainSettings[]): void {
  for (const [i, a] of chains.entries()) {
    const b = chains.slice(i + 1).find((other) => other.chainId === a.chainId);
    if (!b) continue;
    if (a.mode !== b.mode) {
      throw new Error(
        `Invalid configuration: test and live mode are both on chain id ${a.chainId} (CHAIN_TEST_* and CHAIN_LIVE_*). ` +
          'Each mode needs a chain of its own: point test mode at a testnet or a dev chain (for example CHAIN_TEST_PRESET=base-sepolia), or leave it unset.',
      );
    }
    throw new Error(
      `Invalid configuration: ${a.mode} mode lists chain id ${a.chainId} twice (CHAIN_${a.mode.toUpperCase()}_* and CHAIN_${a.mode.toUpperCase()}_CHAINS). Each chain is configured once.`,
    );
  }
}

export function loadChainConfig(env: NodeJS.ProcessEnv = process.env): ChainConfig {
  const [test, ...testOthers] = loadMode(env, 'test');
  const [live, ...liveOthers] = loadMode(env, 'live');
  if (live && live.chainId === 0)
    throw new Error('Invalid configuration: CHAIN_LIVE_CHAIN_ID (or CHAIN_LIVE_PRESET) is required with CHAIN_LIVE_RPC_URL');
  refuseSharedChainIds([test, ...testOthers, live, ...liveOthers].filter((s) => s !== undefined));
  const others = {
    ...(testOthers.length > 0 ? { test: testOthers } : {}),
    ...(liveOthers.length > 0 ? { live: liveOthers } : {}),
  };
  return { ...(test ? { test } : {}), ...(live ? { live } : {}), ...(Object.keys(others).length > 0 ? { others } : {}) };
}

/** Every chain of a mode, its first chain first (none when the mode has no chain). */
export function chainsOf(config: ChainConfig, livemode: boolean): ChainSettings[] {
  const first = livemode ? config.live : config.test;
  return first ? [first, ...((livemode ? config.others?.live : config.others?.test) ?? [])] : [];
}

/**
 * A list's `?chainId=` filter: a chain of the mode, else `invalid_request` naming `chainId` (a typo or the other
 * mode's chain would otherwise be an empty page that looks like "nothing on that chain").
 */
export function listedChainId(config: ChainConfig, livemode: boolean, chainId: number | undefined): number | undefined {
  if (chainId === undefined) return undefined;
  const ids = chainsOf(config, livemode).map((chain) => chain.chainId);
  if (!ids.includes(chainId)) {
    const configured = ids.length > 0 ? `(${ids.join(', ')})` : '(none configured)';
    throw new InvalidRequestError(
      `Chain ${chainId} is not one of this deployment's ${livemode ? 'live' : 'test'} mode chains ${configured}.`,
      {
        param: 'chainId',
      },
    );
  }
  return chainId;
}

/** Every configured chain of both modes: what the indexer follows and readiness checks. */
export function allChains(config: ChainConfig): ChainSettings[] {
  return [...chainsOf(config, false), ...chainsOf(config, true)];
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

/**
 * The settings a request's mode selects: the mode's first chain, or the mode's chain `chainId` when one is named.
 * A mode without configuration, or a chain the mode does not have, is a clear client error, not a 500.
 */
export function chainFor(config: ChainConfig, livemode: boolean, chainId?: number): ChainSettings {
  const settings = livemode ? config.live : config.test;
  if (!settings) {
    throw new InvalidRequestError(
      `${livemode ? 'Live' : 'Test'} mode has no chain configured on this deployment; chain operations are unavailable in this mode.`,
      { param: 'livemode' },
    );
  }
  if (chainId === undefined || chainId === settings.chainId) return settings;
  const named = chainsOf(config, livemode).find((chain) => chain.chainId === chainId);
  if (!named) {
    const ids = chainsOf(config, livemode).map((chain) => chain.chainId);
    throw new InvalidRequestError(
      `Chain ${chainId} is not one of this deployment's ${livemode ? 'live' : 'test'} mode chains (${ids.join(', ')}).`,
      { param: 'chainId' },
    );
  }
  return named;
}
