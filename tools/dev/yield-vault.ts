// The dev chain's ERC-4626 vault for the agents' autoConvertToYield
// (contracts/AgentYieldVault.sol over the dev chain's token, Circle's USDC). Deployed at nonce 0 of its
// own fixed development deployer, so it always lands at DEV_YIELD_VAULT_ADDRESS
// (src/chain/test-mode-defaults.ts), the test-mode default of
// CHAIN_TEST_YIELD_VAULT_ADDRESS. Idempotent: a chain that has it is left alone.
import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  erc4626Abi,
  getAddress,
  http,
  parseEther,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { DEV_YIELD_VAULT_ADDRESS, DEV_YIELD_VAULT_DEPLOYER_KEY } from '../../src/chain/test-mode-defaults.js';
import { loadArtifacts } from './chain/artifacts.js';
import { sendDevTransaction } from './chain/dev-receipts.js';

export async function ensureDevYieldVault(options: { rpcUrl: string; token: Address; funderKey: Hex }): Promise<Address> {
  const bootstrap = createPublicClient({ transport: http(options.rpcUrl) });
  const chain = chainDefinition(await bootstrap.getChainId(), options.rpcUrl);
  const client = createPublicClient({ chain, transport: http(options.rpcUrl), pollingInterval: 100 }) as PublicClient;
  const code = await client.getCode({ address: DEV_YIELD_VAULT_ADDRESS });
  if (code && code !== '0x') {
    const asset = await client.readContract({ address: DEV_YIELD_VAULT_ADDRESS, abi: erc4626Abi, functionName: 'asset' });
    if (getAddress(asset) !== getAddress(options.token))
      throw new Error(`the dev yield vault at ${DEV_YIELD_VAULT_ADDRESS} holds ${asset}, not the token ${options.token}`);
    return DEV_YIELD_VAULT_ADDRESS;
  }
  const deployer = privateKeyToAccount(DEV_YIELD_VAULT_DEPLOYER_KEY);
  if ((await client.getTransactionCount({ address: deployer.address })) !== 0) {
    throw new Error(
      `the dev yield vault deployer ${deployer.address} has sent transactions but ${DEV_YIELD_VAULT_ADDRESS} has no code: use a fresh chain`,
    );
  }
  const gas = parseEther('0.1');
  const balance = await client.getBalance({ address: deployer.address });
  if (balance < gas) {
    const funder = createWalletClient({ account: privateKeyToAccount(options.funderKey), chain, transport: http(options.rpcUrl) });
    await sendDevTransaction(client, funder, { to: deployer.address, value: gas - balance });
  }
  const artifacts = await loadArtifacts();
  const vault = artifacts.contracts.AgentYieldVault;
  if (!vault) throw new Error('contracts/AgentYieldVault.sol was not built');
  const wallet = createWalletClient({ account: deployer, chain, transport: http(options.rpcUrl) });
  const data = encodeDeployData({ abi: vault.abi, bytecode: vault.bytecode, args: [options.token] });
  const receipt = await sendDevTransaction(client, wallet, { data, nonce: 0 });
  if (
    receipt.status !== 'success' ||
    getAddress(receipt.contractAddress ?? '0x0000000000000000000000000000000000000000') !== DEV_YIELD_VAULT_ADDRESS
  ) {
    throw new Error(`the dev yield vault deployment failed or landed at ${receipt.contractAddress ?? 'nowhere'}`);
  }
  return DEV_YIELD_VAULT_ADDRESS;
}
