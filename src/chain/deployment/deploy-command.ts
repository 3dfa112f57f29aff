// `npm run contracts:deploy`: puts SubscriptionManager, the escrow and the deposit factory on a known chain at their
// CREATE2 addresses (or verifies they are there) and prints the CHAIN_<MODE>_* lines to paste.
// The deployer key comes from DEPLOYER_PRIVATE_KEY only: an argument would land in shell history
// and in every process listing. Neither the key nor the RPC URL (which often embeds a provider's
// API key) is ever printed.
import { parseArgs } from 'node:util';
import { type Hex, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../chain-definition.js';
import { safeChainError } from '../clients.js';
import { type ChainPreset, describeChainPresets, findChainPreset } from '../presets.js';
import { CREATE2_FACTORY_ADDRESS, CREATE2_FACTORY_DEPLOYMENT, deployCreate2Factory, factoryState } from './create2-factory.js';
import { type DeploymentOutcome, ForeignCodeError, deployPlanned, planDeterministicDeployment } from './deterministic-deployment.js';
import { type ContractBuild, PROJECT_CREATE2_SALT, projectContracts } from './project-contracts.js';

export const DEPLOYER_KEY_VARIABLE = 'DEPLOYER_PRIVATE_KEY';

export const USAGE = `Usage: npm run contracts:deploy -- --chain <name|id> [--rpc-url <url>] [options]

Deploys SubscriptionManager, the escrow, the deposit factory and SubscriptionManagerV2 at their deterministic CREATE2
addresses, or verifies they are already there, and prints the settings to paste.

  --chain <name|id>       ${describeChainPresets()}
  --rpc-url <url>         the chain's JSON-RPC endpoint (default: CHAIN_<MODE>_RPC_URL)
  --mode live|test        which settings to print, CHAIN_LIVE_* or CHAIN_TEST_* (default live)
  --confirmations <n>     blocks to wait for after each deployment (default: the chain's preset)
  --deploy-factory        put the CREATE2 factory on a chain that lacks it (from its presigned transaction)
  --help                  this text

The deployer key is read from ${DEPLOYER_KEY_VARIABLE}, never from an argument. A run that only
verifies needs no key.`;

export type DeployCommandIo = {
  env: NodeJS.ProcessEnv;
  /** The lines to paste (stdout). */
  out: (line: string) => void;
  /** Progress, warnings and errors (stderr). */
  err: (line: string) => void;
  /** Compiles contracts/ (the script passes the artifact build; tests may pass a fixed one). */
  loadBuild: () => Promise<ContractBuild>;
};

type Options = { preset: ChainPreset; rpcUrl: string; mode: 'live' | 'test'; confirmations: number; deployFactory: boolean; key?: Hex };

class UsageError extends Error {}

const KEY_LIKE_OPTION = /^--?(private[-_]?key|deployer[-_]?key|key|mnemonic|seed)(=|$)/i;

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options | 'help' {
  if (argv.some((arg) => KEY_LIKE_OPTION.test(arg))) {
    throw new UsageError(
      `Keys are never taken as arguments (they end up in shell history and process lists): set ${DEPLOYER_KEY_VARIABLE}.`,
    );
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        chain: { type: 'string' },
        'rpc-url': { type: 'string' },
        mode: { type: 'string' },
        confirmations: { type: 'string' },
        'deploy-factory': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const chain = values.chain as string | undefined;
  if (!chain) throw new UsageError('--chain is required');
  const preset = findChainPreset(chain);
  if (!preset) throw new UsageError(`--chain ${chain} is not a known chain`);
  const mode = (values.mode as string | undefined) ?? 'live';
  if (mode !== 'live' && mode !== 'test') throw new UsageError('--mode is live or test');
  const rpcUrl = (values['rpc-url'] as string | undefined) || env[`CHAIN_${mode.toUpperCase()}_RPC_URL`];
  if (!rpcUrl) throw new UsageError(`--rpc-url is required (or set CHAIN_${mode.toUpperCase()}_RPC_URL)`);
  const confirmationsText = values.confirmations as string | undefined;
  const confirmations = confirmationsText === undefined ? preset.confirmations : Number(confirmationsText);
  if (!Number.isSafeInteger(confirmations) || confirmations < 1) throw new UsageError('--confirmations is a whole number of at least 1');
  const key = env[DEPLOYER_KEY_VARIABLE];
  if (key && !/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new UsageError(`${DEPLOYER_KEY_VARIABLE} is not a 0x-prefixed 32-byte hex private key`);
  return { preset, rpcUrl, mode, confirmations, deployFactory: Boolean(values['deploy-factory']), ...(key ? { key: key as Hex } : {}) };
}

/** Runs the command; resolves to the process exit code (0 done, 1 refused or failed, 2 bad arguments). */
export async function runContractsDeploy(argv: readonly string[], io: DeployCommandIo): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`Error: ${error.message}`);
    io.err('');
    io.err(USAGE);
    return 2;
  }
  if (options === 'help') {
    io.out(USAGE);
    return 0;
  }
  try {
    return await deploy(options, io);
  } catch (error) {
    const safe = safeChainError(error) as Error;
    io.err(`Error: ${safe.message}`);
    return 1;
  }
}

async function deploy(options: Options, io: DeployCommandIo): Promise<number> {
  const { preset } = options;
  const chain = chainDefinition(preset.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl, { retryCount: 2, timeout: 30_000 });
  const client = createPublicClient({ chain, transport, pollingInterval: Math.min(preset.pollIntervalMs, 1_000), cacheTime: 0 });

  const servedChainId = await client.getChainId();
  if (servedChainId !== preset.chainId) {
    io.err(`Error: the RPC endpoint serves chain id ${servedChainId}, not ${preset.displayName} (${preset.chainId}): nothing was sent.`);
    return 1;
  }
  const wallet = options.key ? createWalletClient({ account: privateKeyToAccount(options.key), chain, transport }) : undefined;
  if (wallet) io.err(`deployer ${wallet.account.address} on ${preset.displayName} (chain id ${preset.chainId})`);

  const factory = await factoryState(client);
  if (factory === 'foreign') {
    io.err(`Error: ${CREATE2_FACTORY_ADDRESS} holds code that is not the deterministic deployment proxy: nothing was sent.`);
    return 1;
  }
  if (factory === 'missing') {
    if (!options.deployFactory || !wallet) {
      io.err(
        `Error: this chain has no CREATE2 factory at ${CREATE2_FACTORY_ADDRESS} (the deterministic deployment proxy). ` +
          `Run again with --deploy-factory and ${DEPLOYER_KEY_VARIABLE} set: the deployer pays its signer ` +
          `${CREATE2_FACTORY_DEPLOYMENT.signer} 0.01 of the gas token and its presigned transaction is broadcast ` +
          `(the RPC must accept pre-EIP-155 transactions).`,
      );
      return 1;
    }
    io.err(`deploying the CREATE2 factory at ${CREATE2_FACTORY_ADDRESS}`);
    await deployCreate2Factory(client, wallet);
  }

  const tokenCode = await client.getCode({ address: preset.usdc });
  if (!tokenCode || tokenCode === '0x') {
    io.err(
      `Warning: no contract at ${preset.displayName}'s USDC address ${preset.usdc}; the escrow is built for that address all the same.`,
    );
  }

  const build = await io.loadBuild();
  const contracts = projectContracts(build, preset.usdc);
  // The v2 contracts go beside v1 (last, so the settings below keep their order): the deposit factory v2 makes
  // new sessions' addresses; the service enrols on the address CHAIN_<MODE>_SUBSCRIPTION_MANAGER_ADDRESS names
  // (docs/decisions.md, issue 37).
  const plan = await planDeterministicDeployment(client, PROJECT_CREATE2_SALT, [
    contracts.subscriptionManager,
    contracts.escrow,
    contracts.depositFactory,
    contracts.depositFactoryV2,
    contracts.subscriptionManagerV2,
  ]);
  let outcomes: DeploymentOutcome[];
  try {
    outcomes = await deployPlanned({
      client,
      ...(wallet ? { wallet } : {}),
      salt: PROJECT_CREATE2_SALT,
      plan,
      confirmations: options.confirmations,
      log: io.err,
    });
  } catch (error) {
    if (!(error instanceof ForeignCodeError)) throw error;
    for (const contract of error.contracts) {
      io.err(
        `Error: ${contract.name} at ${contract.address} holds code that differs from what this build deploys there; nothing was sent.`,
      );
    }
    return 1;
  }
  printSettings(options, build, outcomes, io.out);
  return 0;
}

function printSettings(options: Options, build: ContractBuild, outcomes: readonly DeploymentOutcome[], out: (line: string) => void): void {
  const { preset } = options;
  const P = `CHAIN_${options.mode.toUpperCase()}_`;
  const [subscriptionManager, escrow, depositFactory, depositFactoryV2] = outcomes as [
    DeploymentOutcome,
    DeploymentOutcome,
    DeploymentOutcome,
    DeploymentOutcome,
  ];
  out(`# Stablepay contracts on ${preset.displayName} (chain id ${preset.chainId}), build ${build.buildId} (solc ${build.solcVersion})`);
  for (const outcome of outcomes) {
    const how =
      outcome.outcome === 'deployed'
        ? `deployed in block ${outcome.block} (transaction ${outcome.transactionHash})`
        : 'verified: already there with the expected code';
    out(`# ${outcome.name} ${outcome.address} ${how} ${preset.explorerUrl}/address/${outcome.address}`);
  }
  out(`${P}PRESET=${preset.name}`);
  out(`${P}SUBSCRIPTION_MANAGER_ADDRESS=${subscriptionManager.address}`);
  out(`${P}ESCROW_ADDRESS=${escrow.address}`);
  out(`${P}DEPOSIT_FACTORY_ADDRESS=${depositFactory.address}`);
  out(`${P}DEPOSIT_FACTORY_V2_ADDRESS=${depositFactoryV2.address}`);
  const blocks = outcomes.map((o) => o.block);
  if (blocks.every((block) => block !== undefined)) {
    out(`${P}START_BLOCK=${blocks.reduce((a, b) => (a! < b! ? a : b))}`);
  } else {
    out(`# ${P}START_BLOCK: this node keeps no history to find the deployment blocks; take the earlier one from the explorer links above`);
  }
  out(`# Set as well: ${P}RPC_URL, ${P}RELAYER_KEY and ${P}OPERATOR_KEY (docs/operations.md, "Go live on Base").`);
}
