// Chain helpers for tests: the shared anvil of the run (inject('chain')) as
// settings, or a private anvil for tests that move time, snapshot or reorg.
import { inject } from 'vitest';
import { type ChainSettings } from '../../src/chain/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { SECOND_CHAIN_ID, startDevChain, type DevChain, type DevChainInfo } from '../../tools/dev/chain/dev-chain.js';

export function settingsOf(info: DevChainInfo, overrides: Partial<ChainSettings> = {}): ChainSettings {
  return { ...devChainSettings({ ...info, startBlock: BigInt(info.deployBlock) }), ...overrides };
}

/** The run's shared anvil (read-mostly tests). */
export function sharedChain(): DevChainInfo {
  return inject('chain');
}

/** A private anvil with the contracts deployed and payers funded. */
export async function startPrivateChain(): Promise<DevChain> {
  return startDevChain({ rpcUrl: '' });
}

export { SECOND_CHAIN_ID };

/**
 * A second test-mode chain beside the shared one: its own anvil with chain id 31338, the contracts at
 * the same addresses, payers funded. Start it only in files that need several chains (a deploy takes seconds).
 */
export async function startSecondChain(): Promise<DevChain> {
  return startDevChain({ rpcUrl: '', chainId: SECOND_CHAIN_ID });
}
