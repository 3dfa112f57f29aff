// The dev chain's deposit factory (contracts/DepositForwarder.sol): put at its CREATE2 address through
// the deterministic deployment proxy anvil ships with, exactly as `contracts:deploy` puts it on a real
// chain, so DEPOSIT_FACTORY_ADDRESS holds on both. Idempotent: a chain that has it is only verified.
// Sent from the last payer account: the deployer's nonces are reserved for the nonce-based addresses.
import { type Address, type PublicClient, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../../chain/chain-definition.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../chain/deposits/deposit-contracts.js';
import { deployPlanned, planDeterministicDeployment } from '../../chain/deployment/deterministic-deployment.js';
import { PROJECT_CREATE2_SALT } from '../../chain/deployment/project-contracts.js';
import { loadArtifacts } from './artifacts.js';
import { sendDevTransaction } from './dev-receipts.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

export async function ensureDepositFactory(rpcUrl: string): Promise<Address> {
  const bootstrap = createPublicClient({ transport: http(rpcUrl) });
  const chain = chainDefinition(await bootstrap.getChainId(), rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 100 }) as PublicClient;
  const code = await client.getCode({ address: DEPOSIT_FACTORY_ADDRESS });
  if (code && code !== '0x') return DEPOSIT_FACTORY_ADDRESS;
  const factory = (await loadArtifacts()).contracts.DepositForwarderFactory;
  if (!factory) throw new Error('contracts/DepositForwarder.sol was not built');
  const plan = await planDeterministicDeployment(client, PROJECT_CREATE2_SALT, [{ name: 'DepositForwarderFactory', initCode: factory.bytecode }]);
  if (plan[0]!.address !== DEPOSIT_FACTORY_ADDRESS) {
    throw new Error(`the deposit factory of this build lands at ${plan[0]!.address}, not ${DEPOSIT_FACTORY_ADDRESS}: update src/chain/deposits/deposit-contracts.ts`);
  }
  const account = privateKeyToAccount(DEV_ACCOUNTS.payers.at(-1)!.privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  await deployPlanned({ client, wallet, salt: PROJECT_CREATE2_SALT, plan, confirmations: 1, sendAndWait: (request) => sendDevTransaction(client, wallet, request) });
  return DEPOSIT_FACTORY_ADDRESS;
}
