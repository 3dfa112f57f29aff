// What test mode falls back to when only CHAIN_RPC_URL is set: the contracts at the deterministic
// dev deployment and anvil's public dev keys for the relayer and the operator. Live mode has no
// defaults. The dev tooling (tools/dev/chain/) deploys to exactly these addresses.
import { type Address, type Hex, getContractAddress } from 'viem';

export type ContractAddresses = { token: Address; subscriptionManager: Address; escrow: Address };

/** Where the contracts land for a given deployer (plain CREATE with nonces 0, 1, 2). */
export function predictContractAddresses(deployer: Address): ContractAddresses {
  return {
    token: getContractAddress({ from: deployer, nonce: 0n }),
    subscriptionManager: getContractAddress({ from: deployer, nonce: 1n }),
    escrow: getContractAddress({ from: deployer, nonce: 2n }),
  };
}

/** Anvil's default accounts 0-2 (public keys of a public mnemonic: worthless outside a dev chain). */
export const TEST_MODE_DEFAULTS = Object.freeze({
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address,
  relayerKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex,
  operatorKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' as Hex,
});

/**
 * The dev ERC-4626 vault of the agents' autoConvertToYield (contracts/AgentYieldVault.sol) has a
 * deployer of its own, a fixed development-only key whose nonce 0 is the vault, so its address is
 * fixed whatever else the main deployer has sent (tools/dev/yield-vault.ts deploys it).
 */
export const DEV_YIELD_VAULT_DEPLOYER_KEY = '0x448d375369da08e973ebdb3a13b014b37f6f979a47b66a037d1bb57877266304' as Hex;
export const DEV_YIELD_VAULT_ADDRESS = '0x1B3aa5aa9Af05A28d306196C75Df4a0FFDAa939f' as Address;
