// Transactions on a block explorer: the chain presets the API configures chains from name each
// chain's explorer; a local chain (anvil) has none, so its hashes are shown without a link.
import { findChainPreset } from './shared.ts';

export function explorerTxUrl(chainId: number | string, hash: string): string | null {
  const preset = findChainPreset(String(chainId));
  return preset ? `${preset.explorerUrl}/tx/${hash}` : null;
}

export function chainName(chainId: number | string): string {
  return findChainPreset(String(chainId))?.displayName ?? `Local chain ${chainId}`;
}
