// Chain helpers for tests: the shared anvil of the run (inject('chain')) as
// settings, or a private anvil for tests that move time, snapshot or reorg.
import { inject } from 'vitest';
import { type ChainSettings } from '../../src/chain/config.js';
import { devChainSettings } from '../../tools/dev/chain/settings.js';
import { startDevChain, type DevChain, type DevChainInfo } from '../../tools/dev/chain/dev-chain.js';

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
