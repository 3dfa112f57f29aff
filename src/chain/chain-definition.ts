// The viem Chain object for a configured RPC endpoint. Chains are configured by URL and id, not
// picked from viem's list, so the same definition serves anvil, a testnet and mainnet.
import { type Chain, defineChain } from 'viem';

export function chainDefinition(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `chain-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    // Fee cap at twice the base fee (viem's default is 1.2x): a transaction stays includable
    // through about six full blocks of base-fee rise instead of one or two.
    fees: { baseFeeMultiplier: 2 },
  });
}
