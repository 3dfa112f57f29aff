// The build `npm run contracts:deploy` deploys: this checkout's contracts compiled by solc from npm
// (a dev dependency, which is why this lives in tools/dev/ and production code takes the build as input).
import type { ContractBuild } from '../../../src/chain/deployment/project-contracts.js';
import { loadArtifacts } from './artifacts.js';

export async function loadContractBuild(): Promise<ContractBuild> {
  const artifacts = await loadArtifacts();
  const depositFactory = artifacts.contracts.DepositForwarderFactory;
  if (!depositFactory) throw new Error('the contract build has no DepositForwarderFactory (contracts/DepositForwarder.sol)');
  const depositFactoryV2 = artifacts.contracts.DepositForwarderFactoryV2;
  if (!depositFactoryV2) throw new Error('the contract build has no DepositForwarderFactoryV2 (contracts/DepositForwarderV2.sol)');
  return {
    buildId: artifacts.sourceHash,
    solcVersion: artifacts.solcVersion,
    subscriptionManagerBytecode: artifacts.contracts.SubscriptionManager.bytecode,
    escrowBytecode: artifacts.contracts.AgenticCommerceEscrow.bytecode,
    depositFactoryBytecode: depositFactory.bytecode,
    depositFactoryV2Bytecode: depositFactoryV2.bytecode,
    subscriptionManagerV2Bytecode: artifacts.contracts.SubscriptionManagerV2.bytecode,
  };
}
