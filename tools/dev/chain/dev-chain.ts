// The local chain for `npm start`: anvil (unless CHAIN_RPC_URL names a chain),
// the contracts at their deterministic addresses, and funded payer accounts.
//
// Persistence: anvil runs with `--state .data/anvil-state.json`, which it loads at start and
// writes on a clean stop, so balances and subscriptions survive a restart. Deployment is
// idempotent either way (deployContracts finds the contracts at their deterministic addresses and
// only tops payers up), so a lost or stale state file just means a fresh chain with the same addresses.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Address, Hex } from 'viem';
import { startAnvil, type AnvilInstance } from '../../../src/chain/anvil.js';
import { deployContracts } from './deploy.js';
import { ensureDepositFactory, ensureDepositFactoryV2, ensureSubscriptionManagerV2 } from './deposit-factory.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

/** The `chain` object of .data/dev.json (and of the test suite's inject('chain')). */
export type DevChainInfo = {
  rpcUrl: string;
  chainId: number;
  token: Address;
  subscriptionManager: Address;
  /** SubscriptionManagerV2 (charge windows): where every new enrolment goes; v1 keeps what enrolled on it. */
  subscriptionManagerV2?: Address;
  escrow: Address;
  /** The version 1 factory of deposit addresses (contracts/DepositForwarder.sol: sessions created before v2). */
  depositFactory?: Address;
  /** The version 2 factory (contracts/DepositForwarderV2.sol: clones, every new session's deposit address). */
  depositFactoryV2?: Address;
  /** Block of the token's deployment: where an indexer may start. As a decimal string. */
  deployBlock: string;
  relayer: Address;
  operator: Address;
  /** Funded anvil test accounts. Development only: these keys are public. */
  payers: { address: Address; privateKey: Hex }[];
};

/** The chain id of test mode's second local chain (`npm start`, tests of several chains). */
export const SECOND_CHAIN_ID = 31338;

export type DevChain = { info: DevChainInfo; anvil?: AnvilInstance; stop: () => Promise<void> };

export type StartDevChainOptions = {
  /** Where the state file goes (default: none, a throwaway chain). `npm start` passes `.data`. */
  dataDir?: string;
  /** Use this chain instead of starting anvil (default: process.env.CHAIN_RPC_URL). */
  rpcUrl?: string;
  /** Seconds between blocks (default automine: one block per transaction). */
  blockTime?: number;
  /** Chain id of the anvil started (default 31337); `npm start`'s second chain is 31338. */
  chainId?: number;
  /** Name of the state file in `dataDir` (default anvil-state.json): one per chain. */
  stateFile?: string;
  log?: (line: string) => void;
};

export async function startDevChain(options: StartDevChainOptions = {}): Promise<DevChain> {
  const external = options.rpcUrl ?? process.env.CHAIN_RPC_URL;
  let anvil: AnvilInstance | undefined;
  let rpcUrl = external;
  if (!rpcUrl) {
    let state: string | undefined;
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true });
      state = join(options.dataDir, options.stateFile ?? 'anvil-state.json');
    }
    anvil = await startAnvil({
      ...(state ? { state } : {}),
      ...(options.blockTime ? { blockTime: options.blockTime } : {}),
      ...(options.chainId ? { chainId: options.chainId } : {}),
      onPoolRepair: (line) => options.log?.(line),
    });
    rpcUrl = anvil.rpcUrl;
    options.log?.(
      `anvil (chain ${options.chainId ?? 31337}) listening on ${rpcUrl}${state ? ` (state persisted in .data/${options.stateFile ?? 'anvil-state.json'})` : ''}`,
    );
  }
  try {
    const deployed = await deployContracts({
      rpcUrl,
      deployerKey: DEV_ACCOUNTS.deployer.privateKey,
      payers: DEV_ACCOUNTS.payers.map((p) => p.address),
    });
    const depositFactory = await ensureDepositFactory(rpcUrl);
    const depositFactoryV2 = await ensureDepositFactoryV2(rpcUrl);
    const subscriptionManagerV2 = await ensureSubscriptionManagerV2(rpcUrl);
    options.log?.(`contracts ${deployed.alreadyDeployed ? 'found' : 'deployed'}: token ${deployed.token}`);
    const info: DevChainInfo = {
      rpcUrl,
      chainId: deployed.chainId,
      token: deployed.token,
      subscriptionManager: deployed.subscriptionManager,
      subscriptionManagerV2,
      escrow: deployed.escrow,
      depositFactory,
      depositFactoryV2,
      deployBlock: deployed.deployBlock.toString(),
      relayer: DEV_ACCOUNTS.relayer.address,
      operator: DEV_ACCOUNTS.operator.address,
      payers: DEV_ACCOUNTS.payers.map((p) => ({ address: p.address, privateKey: p.privateKey })),
    };
    return { info, ...(anvil ? { anvil } : {}), stop: async () => anvil?.stop() };
  } catch (error) {
    await anvil?.stop();
    throw error;
  }
}

/** The CHAIN_* environment for the api, worker and indexer processes started next to this chain. */
export function devChainEnv(info: DevChainInfo): Record<string, string> {
  return {
    CHAIN_TEST_RPC_URL: info.rpcUrl,
    CHAIN_TEST_CHAIN_ID: String(info.chainId),
    CHAIN_TEST_TOKEN_ADDRESS: info.token,
    CHAIN_TEST_SUBSCRIPTION_MANAGER_ADDRESS: info.subscriptionManager,
    ...(info.subscriptionManagerV2 ? { CHAIN_TEST_SUBSCRIPTION_MANAGER_V2_ADDRESS: info.subscriptionManagerV2 } : {}),
    CHAIN_TEST_ESCROW_ADDRESS: info.escrow,
    ...(info.depositFactory ? { CHAIN_TEST_DEPOSIT_FACTORY_ADDRESS: info.depositFactory } : {}),
    ...(info.depositFactoryV2 ? { CHAIN_TEST_DEPOSIT_FACTORY_V2_ADDRESS: info.depositFactoryV2 } : {}),
    CHAIN_TEST_START_BLOCK: info.deployBlock,
  };
}

/**
 * The CHAIN_* environment of a mode's further dev chain (`npm start`'s second anvil): listed in
 * CHAIN_TEST_CHAINS by its chain id, with its own RPC URL and start block; it inherits the contract
 * addresses, keys and timings from the first chain (the same deployer and nonces put the contracts
 * at the same addresses on both).
 */
export function devFurtherChainEnv(info: DevChainInfo): Record<string, string> {
  const P = `CHAIN_TEST_${info.chainId}_`;
  return {
    CHAIN_TEST_CHAINS: String(info.chainId),
    [`${P}RPC_URL`]: info.rpcUrl,
    [`${P}START_BLOCK`]: info.deployBlock,
  };
}
