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

/** Where a payment session is: the chain that paid it, else the chains it accepts ("Base or Arbitrum One"). */
export function sessionNetwork(session: { chainId: number; transactionChainId?: number | null; acceptedChainIds?: number[] }): string {
  if (session.transactionChainId != null) return chainName(session.transactionChainId);
  const accepted = session.acceptedChainIds?.length ? session.acceptedChainIds : [session.chainId];
  return accepted.map(chainName).join(' or ');
}

/** An address on the chain's block explorer (null for a chain without one, like a local anvil). */
export function explorerAddressUrl(chainId: number | string, address: string): string | null {
  const preset = findChainPreset(String(chainId));
  return preset ? `${preset.explorerUrl}/address/${address}` : null;
}
