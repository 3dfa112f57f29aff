// The dev chain's deposit factories: version 1 (contracts/DepositForwarder.sol, sessions created before
// version 2) and version 2 (contracts/DepositForwarderV2.sol, clones: new sessions), each put at its
// CREATE2 address through the deterministic deployment proxy anvil ships with, exactly as
// `contracts:deploy` puts them on a real chain, so DEPOSIT_FACTORY_ADDRESS and DEPOSIT_FACTORY_V2_ADDRESS
// hold on both. Idempotent: a chain that has one is only verified.
// Sent from the last payer account: the deployer's nonces are reserved for the nonce-based addresses.
import { SUBSCRIPTION_MANAGER_V2_ADDRESS } from '../../../src/chain/subscription-manager-v2.js';
import { type Address, type PublicClient, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../../../src/chain/chain-definition.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../../src/chain/deposits/deposit-contracts.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../../src/chain/deposits/deposit-contracts-v2.js';
import { deployPlanned, planDeterministicDeployment } from '../../../src/chain/deployment/deterministic-deployment.js';
import { PROJECT_CREATE2_SALT } from '../../../src/chain/deployment/project-contracts.js';
import { loadArtifacts } from './artifacts.js';
import { sendDevTransaction } from './dev-receipts.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

/** The version 1 factory (sessions created before version 2 sweep through it). */
export async function ensureDepositFactory(rpcUrl: string): Promise<Address> {
  return ensureFactory(rpcUrl, 'DepositForwarderFactory', DEPOSIT_FACTORY_ADDRESS, 'src/chain/deposits/deposit-contracts.ts');
}

/** The version 2 factory (clones; every new session's deposit address). */
export async function ensureDepositFactoryV2(rpcUrl: string): Promise<Address> {
  return ensureFactory(rpcUrl, 'DepositForwarderFactoryV2', DEPOSIT_FACTORY_V2_ADDRESS, 'src/chain/deposits/deposit-contracts-v2.ts');
}

/** SubscriptionManagerV2 at its CREATE2 address (where every new enrolment goes), unless it is there already. */
export async function ensureSubscriptionManagerV2(rpcUrl: string): Promise<Address> {
  return ensureFactory(rpcUrl, 'SubscriptionManagerV2', SUBSCRIPTION_MANAGER_V2_ADDRESS, 'src/chain/subscription-manager-v2.ts');
}

/** A project contract without constructor arguments at its CREATE2 address (the deposit factories, SubscriptionManagerV2). */
async function ensureFactory(rpcUrl: string, name: string, expected: Address, constantsFile: string): Promise<Address> {
  const bootstrap = createPublicClient({ transport: http(rpcUrl) });
  const chain = chainDefinition(await bootstrap.getChainId(), rpcUrl);
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 100 }) as PublicClient;
  const code = await client.getCode({ address: expected });
  if (code && code !== '0x') return expected;
  const factory = (await loadArtifacts()).contracts[name];
  if (!factory) throw new Error(`${name} was not built`);
  const plan = await planDeterministicDeployment(client, PROJECT_CREATE2_SALT, [{ name, initCode: factory.bytecode }]);
  if (plan[0]!.address !== expected) {
    throw new Error(`${name} of this build lands at ${plan[0]!.address}, not ${expected}: update ${constantsFile}`);
  }
  const account = privateKeyToAccount(DEV_ACCOUNTS.payers.at(-1)!.privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  await deployPlanned({
    client,
    wallet,
    salt: PROJECT_CREATE2_SALT,
    plan,
    confirmations: 1,
    sendAndWait: (request) => sendDevTransaction(client, wallet, request),
  });
  return expected;
}
