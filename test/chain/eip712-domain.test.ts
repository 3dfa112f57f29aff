/**
 * The one EIP-712 domain reader (src/chain/eip712-domain.ts) on a private anvil, through its three
 * branches: an ERC-5267 token (TestUSDC: Circle's USDC has no eip712Domain(), which is why TestUSDC is
 * still built), a name()/version() token (Circle's USDC, as deployed on the dev chain), and a per-chain
 * known value for a contract whose domain cannot be read.
 */
import { type Address, type PublicClient, createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { KNOWN_TOKEN_DOMAINS, NoDomainError, readDomain, readDomainWithSource } from '../../src/chain/eip712-domain.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { type DeployedContracts, deployContracts } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';

let anvil: AnvilInstance;
let deployed: DeployedContracts;
let erc5267Token: Address;
let requests = 0;

/** A fresh client (no shared cache key with the other tests' clients) that counts its RPC requests. */
function countingClient(): PublicClient {
  return createPublicClient({
    chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
    transport: http(`${anvil.rpcUrl}/?client=${Math.random()}`, { onFetchRequest: () => void requests++ }),
  }) as PublicClient;
}

beforeAll(async () => {
  anvil = await startAnvil();
  deployed = await deployContracts({ rpcUrl: anvil.rpcUrl, deployerKey: DEV_ACCOUNTS.deployer.privateKey });
  const artifacts = await loadArtifacts();
  const someone = privateKeyToAccount(DEV_ACCOUNTS.payers[0]!.privateKey);
  const wallet = createWalletClient({
    account: someone,
    chain: chainDefinition(anvil.chainId, anvil.rpcUrl),
    transport: http(anvil.rpcUrl),
  });
  const hash = await wallet.deployContract({
    abi: artifacts.contracts.TestUSDC.abi,
    bytecode: artifacts.contracts.TestUSDC.bytecode,
    args: [someone.address],
  });
  erc5267Token = getAddress((await countingClient().waitForTransactionReceipt({ hash })).contractAddress!);
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
});

describe('readDomain', () => {
  it('reads an ERC-5267 token through eip712Domain()', async () => {
    expect(await readDomainWithSource(countingClient(), erc5267Token)).toEqual({
      source: 'erc5267',
      domain: { name: 'USD Coin', version: '2', chainId: 31337n, verifyingContract: erc5267Token },
    });
  });

  it("reads Circle's USDC (no ERC-5267) through name() and version(), and caches it", async () => {
    const client = countingClient();
    expect(await readDomainWithSource(client, deployed.token)).toEqual({
      source: 'name-version',
      domain: { name: 'USD Coin', version: '2', chainId: 31337n, verifyingContract: deployed.token },
    });
    const before = requests;
    expect(await readDomain(client, deployed.token)).toEqual({
      name: 'USD Coin',
      version: '2',
      chainId: 31337n,
      verifyingContract: deployed.token,
    });
    expect(requests).toBe(before);
  });

  it('falls back to the per-chain known value when the contract has no readable domain', async () => {
    const escrow = deployed.escrow; // no eip712Domain(), name(), version() or DOMAIN_SEPARATOR()
    await expect(readDomain(countingClient(), escrow)).rejects.toBeInstanceOf(NoDomainError);
    const known = { 31337: { [escrow.toLowerCase()]: { name: 'Known Token', version: '7' } } };
    expect(await readDomainWithSource(countingClient(), escrow, { known })).toEqual({
      source: 'known',
      domain: { name: 'Known Token', version: '7', chainId: 31337n, verifyingContract: escrow },
    });
  });

  it("knows Circle's USDC on the chains the product goes live on", () => {
    expect(KNOWN_TOKEN_DOMAINS[8453]?.['0x833589fcd6edb6e08f4c7c32d4f71b54bda02913']).toEqual({ name: 'USD Coin', version: '2' });
    expect(KNOWN_TOKEN_DOMAINS[84532]?.['0x036cbd53842c5426634e7929541ec2318f3dcf7e']).toEqual({ name: 'USDC', version: '2' });
  });
});
