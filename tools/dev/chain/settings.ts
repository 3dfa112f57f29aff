// Chain settings for a dev/test deployment (npm start, the test suite): test mode, the deployed
// addresses, anvil's relayer and operator accounts, fast polling.
import type { Address } from 'viem';
import type { ChainSettings } from '../../../src/chain/config.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

/** Settings from a dev/test deployment (npm start, the test suite). */
export function devChainSettings(input: {
  rpcUrl: string;
  chainId: number;
  token: Address;
  subscriptionManager: Address;
  subscriptionManagerV2?: Address;
  escrow: Address;
  depositFactory?: Address;
  depositFactoryV2?: Address;
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
    ...(input.subscriptionManagerV2 ? { subscriptionManagerV2: input.subscriptionManagerV2 } : {}),
    escrow: input.escrow,
    ...(input.depositFactory ? { depositFactory: input.depositFactory } : {}),
    ...(input.depositFactoryV2 ? { depositFactoryV2: input.depositFactoryV2 } : {}),
    confirmations: input.confirmations ?? 1,
    relayerKey: DEV_ACCOUNTS.relayer.privateKey,
    operatorKey: DEV_ACCOUNTS.operator.privateKey,
    operator: DEV_ACCOUNTS.operator.address,
    startBlock: input.startBlock ?? 0n,
    stuckAfterSeconds: 15,
    // A blocked deposit sweep looks at its payout again soon (tests lift a blacklist and wait).
    sweepRecheckSeconds: 2,
    pollIntervalMs: 100,
  };
}
