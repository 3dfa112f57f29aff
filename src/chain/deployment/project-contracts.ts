// The project's own contracts as a real chain gets them: SubscriptionManager, the ERC-8183 escrow and
// the deposit forwarder factories (contracts/DepositForwarder.sol, version 1, kept for sessions created
// before version 2; contracts/DepositForwarderV2.sol, clones), each at its CREATE2 address through the deterministic deployment proxy.
//
// What feeds an address: the factory's address, the salt below, and the init code, which is the
// creation bytecode (so the contract sources, the solc version, the OpenZeppelin version and the
// compiler settings: the build's source hash) followed by the ABI-encoded constructor arguments.
// SubscriptionManager (v1 and v2) takes none, so one build has one address on every chain; the escrow takes
// the token, so its address differs per chain's USDC. The deposit factory takes none either: it lands
// at DEPOSIT_FACTORY_ADDRESS on every chain. A new build moves them.
import { type Address, type Hex, encodeDeployData, keccak256, stringToHex } from 'viem';
import { agenticCommerceEscrowAbi, subscriptionManagerAbi, subscriptionManagerV2Abi } from '../generated/contracts.js';
import { create2Address } from './create2-factory.js';
import type { ContractToDeploy } from './deterministic-deployment.js';

/** Names this project's deployments among everything else deployed through the same factory. */
export const PROJECT_CREATE2_SALT: Hex = keccak256(stringToHex('stablepay/contracts/v1'));

/** Creation bytecode of a build of contracts/ (compiled by the caller: production code has no compiler). */
export type ContractBuild = {
  /** Identifies the build (the artifacts' source hash). */
  buildId: string;
  solcVersion: string;
  subscriptionManagerBytecode: Hex;
  escrowBytecode: Hex;
  depositFactoryBytecode: Hex;
  depositFactoryV2Bytecode: Hex;
  /** contracts/SubscriptionManagerV2.sol, deployed beside v1 (v1 keeps charging what enrolled on it). */
  subscriptionManagerV2Bytecode: Hex;
};

export type ProjectContracts = {
  subscriptionManager: ContractToDeploy;
  escrow: ContractToDeploy;
  depositFactory: ContractToDeploy;
  depositFactoryV2: ContractToDeploy;
  subscriptionManagerV2: ContractToDeploy;
};

export function projectContracts(build: ContractBuild, token: Address): ProjectContracts {
  return {
    subscriptionManager: {
      name: 'SubscriptionManager',
      initCode: encodeDeployData({ abi: subscriptionManagerAbi, bytecode: build.subscriptionManagerBytecode }),
    },
    escrow: {
      name: 'AgenticCommerceEscrow',
      initCode: encodeDeployData({ abi: agenticCommerceEscrowAbi, bytecode: build.escrowBytecode, args: [token] }),
    },
    depositFactory: { name: 'DepositForwarderFactory', initCode: build.depositFactoryBytecode },
    depositFactoryV2: { name: 'DepositForwarderFactoryV2', initCode: build.depositFactoryV2Bytecode },
    subscriptionManagerV2: {
      name: 'SubscriptionManagerV2',
      initCode: encodeDeployData({ abi: subscriptionManagerV2Abi, bytecode: build.subscriptionManagerV2Bytecode }),
    },
  };
}

/** Where `contracts:deploy` puts this build's contracts on a chain whose USDC is `token`. */
export function predictProjectContractAddresses(
  build: ContractBuild,
  token: Address,
): { subscriptionManager: Address; escrow: Address; depositFactory: Address; depositFactoryV2: Address; subscriptionManagerV2: Address } {
  const contracts = projectContracts(build, token);
  return {
    subscriptionManager: create2Address(PROJECT_CREATE2_SALT, contracts.subscriptionManager.initCode),
    escrow: create2Address(PROJECT_CREATE2_SALT, contracts.escrow.initCode),
    depositFactory: create2Address(PROJECT_CREATE2_SALT, contracts.depositFactory.initCode),
    depositFactoryV2: create2Address(PROJECT_CREATE2_SALT, contracts.depositFactoryV2.initCode),
    subscriptionManagerV2: create2Address(PROJECT_CREATE2_SALT, contracts.subscriptionManagerV2.initCode),
  };
}
