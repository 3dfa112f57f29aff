/**
 * Deploys Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, circle-usdc.ts), SubscriptionManager and
 * AgenticCommerceEscrow at deterministic addresses and mints test funds.
 *
 * Address scheme: plain CREATE from fixed deployers with a fixed nonce order
 *   usdcDeployer nonce 0 -> SignatureChecker, nonce 1 -> FiatTokenV2_2 (the implementation)
 *   deployer     nonce 0 -> FiatTokenProxy (the token), nonce 1 -> SubscriptionManager, nonce 2 -> AgenticCommerceEscrow
 * so the addresses depend only on the deployer addresses (not on the bytecode: editing a contract does not
 * move them). With anvil's account 0 as deployer they are the well-known
 *   0x5FbDB2315678afecb367f032d93F642f64180aa3, 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512,
 *   0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0.
 * Re-running against a chain that already has them only finishes the token's initialisation if a previous
 * run stopped half-way, and tops up payers.
 */
import {
  type Address,
  type Hex,
  type PublicClient,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  http,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { agenticCommerceEscrowAbi, subscriptionManagerAbi } from '../../../src/chain/generated/contracts.js';
import { fiatTokenAbi } from '../../../src/chain/generated/fiat-token.js';
import { chainDefinition } from '../../../src/chain/chain-definition.js';
import { type ContractAddresses, predictContractAddresses } from '../../../src/chain/test-mode-defaults.js';
import { type ArtifactSet, loadArtifacts } from './artifacts.js';
import { initialiseUsdc, loadCircleUsdcArtifacts, predictUsdcImplementation, signUsdcImplementationDeployments } from './circle-usdc.js';
import { waitForDevReceipt } from './dev-receipts.js';
import { DEV_ACCOUNTS } from './test-accounts.js';
import { sendSignedInWaves } from './waves.js';

export interface DeployContractsOptions {
  rpcUrl: string;
  /** Deployer (and the token proxy's admin). Must have nonce 0 on a chain without the contracts. */
  deployerKey: Hex;
  /** Addresses topped up to `payerBalance` USDC. */
  payers?: readonly Address[];
  /** Target token balance per payer in base units (6 decimals). Default 1,000,000 USDC. */
  payerBalance?: bigint;
  /** Pre-loaded artifacts (default: loadArtifacts()). */
  artifacts?: ArtifactSet;
}

export interface DeployedContracts extends ContractAddresses {
  chainId: number;
  deployer: Address;
  /** Block of the token proxy's deployment: a safe starting checkpoint for an indexer. */
  deployBlock: bigint;
  /** true when the contracts were already on chain and nothing was deployed. */
  alreadyDeployed: boolean;
}

export const DEFAULT_PAYER_BALANCE = 1_000_000n * 10n ** 6n;

/** Receipt polling for dev chains (viem's default of 4 s makes a 1 s block-time deploy take ~10 s). */
const POLLING_INTERVAL_MS = 250;

async function hasCode(client: PublicClient, address: Address, blockNumber?: bigint): Promise<boolean> {
  const code = await client.getCode(blockNumber === undefined ? { address } : { address, blockNumber });
  return code !== undefined && code !== '0x';
}

/** First block where `address` has code (binary search; 0n when history is unavailable, e.g. after `--state` reload). */
async function findDeploymentBlock(client: PublicClient, address: Address): Promise<bigint> {
  try {
    let lo = 0n;
    let hi = await client.getBlockNumber();
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if (await hasCode(client, address, mid)) hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  } catch {
    return 0n;
  }
}

export async function deployContracts(options: DeployContractsOptions): Promise<DeployedContracts> {
  const account = privateKeyToAccount(options.deployerKey);
  const bootstrap = createPublicClient({ transport: http(options.rpcUrl) });
  const chainId = await bootstrap.getChainId();
  const chain = chainDefinition(chainId, options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(options.rpcUrl), pollingInterval: POLLING_INTERVAL_MS });
  const wallet = createWalletClient({ account, chain, transport: http(options.rpcUrl) });
  const predicted = predictContractAddresses(account.address);

  const present = await Promise.all(Object.values(predicted).map((a) => hasCode(publicClient, a)));
  let alreadyDeployed = false;
  let deployBlock: bigint;

  if (present.every(Boolean)) {
    alreadyDeployed = true;
    deployBlock = await findDeploymentBlock(publicClient, predicted.token);
  } else {
    const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
    if (nonce !== 0 || present.some(Boolean)) {
      throw new Error(
        `Cannot deploy at the deterministic addresses: deployer ${account.address} has nonce ${nonce} ` +
          `(needs 0 on a fresh chain) and the contracts are not all present. Use a fresh chain or a fresh deployer key.`,
      );
    }
    const artifacts = options.artifacts ?? (await loadArtifacts());
    const implementation = await ensureUsdcImplementation(publicClient, chainId);
    const usdc = loadCircleUsdcArtifacts();
    // Explicit nonces: all three can be in flight together (fast with --block-time), order stays fixed.
    // Signed here and sent raw, so a deployment the node lost can be sent again while waiting.
    const deployments = [
      encodeDeployData({ abi: usdc.fiatTokenProxy.abi, bytecode: usdc.fiatTokenProxy.bytecode, args: [implementation] }),
      encodeDeployData({ abi: subscriptionManagerAbi, bytecode: artifacts.contracts.SubscriptionManager.bytecode }),
      encodeDeployData({
        abi: agenticCommerceEscrowAbi,
        bytecode: artifacts.contracts.AgenticCommerceEscrow.bytecode,
        args: [predicted.token],
      }),
    ];
    const raws: Hex[] = [];
    const hashes: Hex[] = [];
    // One after the other, as each gas estimate may run against the contracts sent before it.
    for (const [nonce, data] of deployments.entries()) {
      const raw = await wallet.signTransaction(await wallet.prepareTransactionRequest({ data, nonce }));
      raws.push(raw);
      hashes.push(await publicClient.sendRawTransaction({ serializedTransaction: raw }));
    }
    const receipts = await Promise.all(hashes.map((hash) => waitForDevReceipt(publicClient as PublicClient, hash, { resend: raws })));
    const expected = [predicted.token, predicted.subscriptionManager, predicted.escrow];
    receipts.forEach((r, i) => {
      if (r.status !== 'success' || r.contractAddress?.toLowerCase() !== expected[i]?.toLowerCase()) {
        throw new Error(`Deployment ${i} failed or landed at ${r.contractAddress ?? 'nowhere'}`);
      }
    });
    deployBlock = receipts[0]?.blockNumber ?? 0n;
  }
  await giveUsdcRolesGas(publicClient);
  await initialiseUsdc(publicClient, predicted.token);

  if (options.payers && options.payers.length > 0) {
    await fundPayers({
      rpcUrl: options.rpcUrl,
      minterKey: DEV_ACCOUNTS.usdcMasterMinter.privateKey,
      token: predicted.token,
      payers: options.payers,
      balance: options.payerBalance ?? DEFAULT_PAYER_BALANCE,
    });
  }

  return { ...predicted, chainId, deployer: account.address, deployBlock, alreadyDeployed };
}

/** The dev gas of the token's role accounts: anvil does not fund mnemonic accounts past the tenth. */
const ROLE_GAS = 10n ** 22n; // 10,000 ETH, as anvil's own accounts

export async function giveUsdcRolesGas(client: PublicClient): Promise<void> {
  const roles = [
    DEV_ACCOUNTS.usdcDeployer,
    DEV_ACCOUNTS.usdcOwner,
    DEV_ACCOUNTS.usdcMasterMinter,
    DEV_ACCOUNTS.usdcPauser,
    DEV_ACCOUNTS.usdcBlacklister,
  ];
  for (const { address } of roles) {
    if ((await client.getBalance({ address })) >= ROLE_GAS / 10n) continue;
    await client.request({ method: 'anvil_setBalance' as never, params: [address, toHex(ROLE_GAS)] as never });
  }
}

/**
 * SignatureChecker and FiatTokenV2_2 from usdcDeployer's nonces 0 and 1, unless they are there already.
 * The proxy checks in its constructor that the implementation has code, so they go first.
 */
export async function ensureUsdcImplementation(client: PublicClient, chainId: number): Promise<Address> {
  const { signatureChecker, implementation } = predictUsdcImplementation();
  const present = await Promise.all([hasCode(client, signatureChecker), hasCode(client, implementation)]);
  if (present.every(Boolean)) return implementation;
  await giveUsdcRolesGas(client);
  const nonce = await client.getTransactionCount({ address: DEV_ACCOUNTS.usdcDeployer.address, blockTag: 'pending' });
  if (nonce !== 0 || present.some(Boolean)) {
    throw new Error(
      `Cannot deploy USDC's implementation: ${DEV_ACCOUNTS.usdcDeployer.address} has nonce ${nonce} and it is not all present. Use a fresh chain.`,
    );
  }
  const fees = await client.estimateFeesPerGas();
  const raws = await signUsdcImplementationDeployments({
    chainId,
    fees: { maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
  });
  const receipts = await sendSignedInWaves(client, raws);
  if (receipts.some((r) => r.status !== 'success')) throw new Error("USDC's SignatureChecker or FiatTokenV2_2 deployment reverted");
  return implementation;
}

export interface FundPayersOptions {
  rpcUrl: string;
  /** A USDC minter's key (the dev master minter, DEV_ACCOUNTS.usdcMasterMinter). */
  minterKey: Hex;
  token: Address;
  payers: readonly Address[];
  /** Target balance in base units; only the shortfall is minted, so this is idempotent. */
  balance: bigint;
  /** Mints sent per wave (tools/dev/chain/waves.ts). */
  wave?: number;
}

/** Tops every payer up to `balance` USDC. Returns the total minted. */
export async function fundPayers(options: FundPayersOptions): Promise<bigint> {
  const account = privateKeyToAccount(options.minterKey);
  const bootstrap = createPublicClient({ transport: http(options.rpcUrl) });
  const chain = chainDefinition(await bootstrap.getChainId(), options.rpcUrl);
  // Thousands of payers (the 10,000-subscription bench): balances read in JSON-RPC batches, with a timeout
  // a busy local node meets, instead of one HTTP request each.
  const publicClient = createPublicClient({
    chain,
    transport: http(options.rpcUrl, { batch: { batchSize: 200 }, timeout: 60_000 }),
    pollingInterval: POLLING_INTERVAL_MS,
  });

  const unique = [...new Set(options.payers.map((p) => p.toLowerCase() as Address))];
  const balances = await Promise.all(
    unique.map((payer) =>
      publicClient.readContract({ address: options.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [payer] }),
    ),
  );
  let nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const fees = await publicClient.estimateFeesPerGas();
  const raws: Hex[] = [];
  let total = 0n;
  for (const [i, payer] of unique.entries()) {
    const shortfall = options.balance - (balances[i] ?? 0n);
    if (shortfall <= 0n) continue;
    total += shortfall;
    raws.push(
      await account.signTransaction({
        type: 'eip1559',
        chainId: chain.id,
        to: options.token,
        data: encodeFunctionData({ abi: fiatTokenAbi, functionName: 'mint', args: [payer, shortfall] }),
        nonce: nonce++,
        gas: 150_000n, // USDC's mint to a new holder: ~75k
        // Far above the base fee: full blocks of mints raise it (see waves.ts).
        maxFeePerGas: fees.maxFeePerGas * 100n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      }),
    );
  }
  const receipts = await sendSignedInWaves(publicClient, raws, options.wave);
  const failed = receipts.filter((r) => r.status !== 'success');
  if (failed.length > 0) throw new Error(`${failed.length} mint transaction(s) reverted`);
  return total;
}
