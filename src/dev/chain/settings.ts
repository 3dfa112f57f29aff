// Chain settings for a dev/test deployment (npm start, the test suite): test mode, the deployed
// addresses, anvil's relayer and operator accounts, fast polling.
import type { Address } from 'viem';
import type { ChainSettings } from '../../chain/config.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

/** Settings from a dev/test deployment (npm start, the test suite). */
export function devChainSettings(input: {
  rpcUrl: string;
  chainId: number;
  token: Address;
  subscriptionManager: Address;
  escrow: Address;
  depositFactory?: Address;
  startBlock?: bigint;
  confirmations?: number;
}): ChainSettings {
  return {
    mode: 'test',
    livemode: false,
    rpcUrl: input.rpcUrl,
    chainId: input.chainId,
    token: input.token,
    subscriptionManager: input.subscriptionManager,
    escrow: input.escrow,
    ...(input.depositFactory ? { depositFactory: input.depositFactory } : {}),
    confirmations: input.confirmations ?? 1,
    relayerKey: DEV_ACCOUNTS.relayer.privateKey,
    operatorKey: DEV_ACCOUNTS.operator.privateKey,
    operator: DEV_ACCOUNTS.operator.address,
    startBlock: input.startBlock ?? 0n,
    stuckAfterSeconds: 15,
    pollIntervalMs: 100,
  };
}
