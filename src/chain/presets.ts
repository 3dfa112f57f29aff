// Known chains: what a deployment needs to know about a chain besides its RPC URL and keys.
// `CHAIN_<MODE>_PRESET` (name or chain id) fills a mode's chain id, token, confirmations and poll
// interval from here (src/chain/config.ts); `npm run contracts:deploy -- --chain` names one too.
//
// Tokens are Circle's native USDC on each chain (developers.circle.com, "USDC Contract Addresses"),
// never a bridged USDC.e. Confirmations count the block holding the event (docs/decisions.md,
// Confirmations) and are chosen by time and by how the chain finalises: about two minutes on an
// L1, tens of seconds on a rollup whose sequencer orders blocks, more on Polygon PoS, whose
// blocks could be reorganised deeply before its milestones. Poll intervals are about one block
// time, and no shorter than a second, so a hosted RPC plan is not spent on empty polls.
import { type Address, getAddress } from 'viem';

export type ChainPreset = {
  /** The name operators type (`--chain base`, `CHAIN_LIVE_PRESET=base`). */
  name: string;
  /** Other accepted names. */
  aliases: readonly string[];
  chainId: number;
  displayName: string;
  /** Circle's native USDC on this chain. */
  usdc: Address;
  confirmations: number;
  pollIntervalMs: number;
  explorerUrl: string;
  /**
   * The chain's public RPC endpoint, for a customer's wallet that does not know the chain yet (the hosted
   * checkout's wallet_addEthereumChain, EIP-3085); never what this service reads the chain through.
   */
  walletRpcUrl: string;
  /** The symbol of the gas currency (18 decimals on every preset), for the same request. */
  nativeSymbol: string;
  testnet: boolean;
};

export const CHAIN_PRESETS: readonly ChainPreset[] = Object.freeze([
  {
    name: 'base',
    aliases: ['base-mainnet'],
    chainId: 8453,
    displayName: 'Base',
    usdc: getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
    // 2 s blocks: 24 s.
    confirmations: 12,
    pollIntervalMs: 2_000,
    explorerUrl: 'https://basescan.org',
    walletRpcUrl: 'https://mainnet.base.org',
    nativeSymbol: 'ETH',
    testnet: false,
  },
  {
    name: 'base-sepolia',
    aliases: [],
    chainId: 84532,
    displayName: 'Base Sepolia',
    usdc: getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e'),
    // A testnet: fewer blocks so a trial payment settles quickly; nothing of value waits on it.
    confirmations: 3,
    pollIntervalMs: 2_000,
    explorerUrl: 'https://sepolia.basescan.org',
    walletRpcUrl: 'https://sepolia.base.org',
    nativeSymbol: 'ETH',
    testnet: true,
  },
  {
    name: 'ethereum',
    aliases: ['mainnet', 'ethereum-mainnet'],
    chainId: 1,
    displayName: 'Ethereum',
    usdc: getAddress('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
    // 12 s slots: about 2.4 min.
    confirmations: 12,
    pollIntervalMs: 4_000,
    explorerUrl: 'https://etherscan.io',
    walletRpcUrl: 'https://ethereum-rpc.publicnode.com',
    nativeSymbol: 'ETH',
    testnet: false,
  },
  {
    name: 'arbitrum',
    aliases: ['arbitrum-one'],
    chainId: 42161,
    displayName: 'Arbitrum One',
    usdc: getAddress('0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
    // 0.25 s blocks: 40 blocks is about 10 s.
    confirmations: 40,
    pollIntervalMs: 1_000,
    explorerUrl: 'https://arbiscan.io',
    walletRpcUrl: 'https://arb1.arbitrum.io/rpc',
    nativeSymbol: 'ETH',
    testnet: false,
  },
  {
    name: 'optimism',
    aliases: ['op', 'op-mainnet'],
    chainId: 10,
    displayName: 'OP Mainnet',
    usdc: getAddress('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'),
    // 2 s blocks: 24 s, as Base (same OP Stack).
    confirmations: 12,
    pollIntervalMs: 2_000,
    explorerUrl: 'https://optimistic.etherscan.io',
    walletRpcUrl: 'https://mainnet.optimism.io',
    nativeSymbol: 'ETH',
    testnet: false,
  },
  {
    name: 'polygon',
    aliases: ['polygon-pos', 'matic'],
    chainId: 137,
    displayName: 'Polygon PoS',
    usdc: getAddress('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
    // 2 s blocks: 64 blocks is about 2 min, past the depth of the reorgs Polygon PoS has seen.
    confirmations: 64,
    pollIntervalMs: 2_000,
    explorerUrl: 'https://polygonscan.com',
    walletRpcUrl: 'https://polygon-rpc.com',
    nativeSymbol: 'POL',
    testnet: false,
  },
]);

/** The preset named by `nameOrId` (a name, an alias or a decimal chain id; case-insensitive), else undefined. */
export function findChainPreset(nameOrId: string): ChainPreset | undefined {
  const wanted = nameOrId.trim().toLowerCase();
  if (/^\d+$/.test(wanted)) return CHAIN_PRESETS.find((preset) => preset.chainId === Number(wanted));
  return CHAIN_PRESETS.find((preset) => preset.name === wanted || preset.aliases.includes(wanted));
}

/** `base (8453), base-sepolia (84532), …`: for error and usage messages. */
export function describeChainPresets(): string {
  return CHAIN_PRESETS.map((preset) => `${preset.name} (${preset.chainId})`).join(', ');
}
