// How `npm start` combines its dev defaults with what the user exported: an
// explicit setting always wins, so the stack can be pointed at another token,
// chain or service without editing the start script.
import type { Address } from 'viem';
import type { DevChainInfo } from './chain/dev-chain.js';

type Env = Record<string, string | undefined>;

/** `defaults`, with every key the environment sets explicitly taken from the environment instead. */
export function explicitWins(defaults: Record<string, string>, env: Env): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries(defaults)) merged[key] = env[key] ?? value;
  return merged;
}

/** The dev chain as the processes will see it: its deployment, but for the CHAIN_TEST_* settings exported by hand. */
export function withExplicitChainSettings(info: DevChainInfo, env: Env): DevChainInfo {
  return {
    ...info,
    rpcUrl: env.CHAIN_TEST_RPC_URL ?? info.rpcUrl,
    chainId: env.CHAIN_TEST_CHAIN_ID ? Number(env.CHAIN_TEST_CHAIN_ID) : info.chainId,
    token: (env.CHAIN_TEST_TOKEN_ADDRESS as Address | undefined) ?? info.token,
    subscriptionManager: (env.CHAIN_TEST_SUBSCRIPTION_MANAGER_ADDRESS as Address | undefined) ?? info.subscriptionManager,
    escrow: (env.CHAIN_TEST_ESCROW_ADDRESS as Address | undefined) ?? info.escrow,
    deployBlock: env.CHAIN_TEST_START_BLOCK ?? info.deployBlock,
  };
}
