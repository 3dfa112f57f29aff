/**
 * `npm run contracts:deploy` against fresh anvils with Base's chain id: the first run deploys through
 * the CREATE2 factory and prints the settings; a second run finds the contracts and verifies their
 * code without sending anything; a wrong chain, foreign code and bad arguments are refused.
 */
import { spawnSync } from 'node:child_process';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { type Address, type Hex, type PublicClient, createPublicClient, http } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE2_FACTORY_ADDRESS, CREATE2_FACTORY_RUNTIME_CODE } from '../../src/chain/deployment/create2-factory.js';
import { runContractsDeploy } from '../../src/chain/deployment/deploy-command.js';
import { planDeterministicDeployment } from '../../src/chain/deployment/deterministic-deployment.js';
import {
  type ContractBuild,
  PROJECT_CREATE2_SALT,
  predictProjectContractAddresses,
  projectContracts,
} from '../../src/chain/deployment/project-contracts.js';
import { findChainPreset } from '../../src/chain/presets.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { findProjectRoot, loadArtifacts } from '../../tools/dev/chain/artifacts.js';
import { loadContractBuild } from '../../tools/dev/chain/contract-build.js';
import { ANVIL_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { DEPOSIT_FACTORY_ADDRESS } from '../../src/chain/deposits/deposit-contracts.js';
import { DEPOSIT_FACTORY_V2_ADDRESS } from '../../src/chain/deposits/deposit-contracts-v2.js';

const base = findChainPreset('base')!;
const deployer = ANVIL_ACCOUNTS[5]!;

let build: ContractBuild;
let expected: {
  subscriptionManager: Address;
  escrow: Address;
  depositFactory: Address;
  depositFactoryV2: Address;
  subscriptionManagerV2: Address;
};

type Run = { code: number; out: string[]; err: string[]; settings: Record<string, string> };

/** Runs the command in-process as the script does, capturing both streams. */
async function deploy(args: string[], env: NodeJS.ProcessEnv = { DEPLOYER_PRIVATE_KEY: deployer.privateKey }): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runContractsDeploy(args, { env, out: (l) => out.push(l), err: (l) => err.push(l), loadBuild: async () => build });
  const settings = Object.fromEntries(out.filter((l) => /^CHAIN_[A-Z0-9_]+=/.test(l)).map((l) => l.split('=') as [string, string]));
  return { code, out, err, settings };
}

function clientOf(anvil: AnvilInstance): PublicClient {
  // No cache: sentSoFar compares block numbers read moments apart (viem caches getBlockNumber for 4 s).
  return createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
}

async function sentSoFar(client: PublicClient): Promise<{ nonce: number; block: bigint }> {
  // cacheTime 0: viem serves a block number read in the last polling interval from its cache.
  return { nonce: await client.getTransactionCount({ address: deployer.address }), block: await client.getBlockNumber({ cacheTime: 0 }) };
}

beforeAll(async () => {
  build = await loadContractBuild();
  expected = predictProjectContractAddresses(build, base.usdc);
}, 180_000);

describe('contracts:deploy on a chain with the CREATE2 factory', () => {
  let anvil: AnvilInstance;
  let client: PublicClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: base.chainId });
    client = clientOf(anvil);
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('tells a deployer without gas money what it needs, and sends nothing', async () => {
    const unfunded = generatePrivateKey();
    const run = await deploy(['--chain', 'base', '--rpc-url', anvil.rpcUrl, '--confirmations', '1'], { DEPLOYER_PRIVATE_KEY: unfunded });
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(
      /The deployer 0x[0-9a-fA-F]{40} holds 0 of the chain's gas token; deploying needs about [0-9.]+ \(\d+ gas\)/,
    );
    expect(await client.getBlockNumber()).toBe(0n);
  });

  it('deploys both contracts at their CREATE2 addresses and prints the lines to paste', async () => {
    expect(await client.getCode({ address: CREATE2_FACTORY_ADDRESS })).toBe(CREATE2_FACTORY_RUNTIME_CODE);
    const run = await deploy(['--chain', 'base', '--rpc-url', anvil.rpcUrl, '--confirmations', '1']);
    expect(run.err.join('\n')).not.toMatch(/^Error/m);
    expect(run.code).toBe(0);
    expect(run.settings).toEqual({
      CHAIN_LIVE_PRESET: 'base',
      CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: expected.subscriptionManager,
      CHAIN_LIVE_ESCROW_ADDRESS: expected.escrow,
      CHAIN_LIVE_DEPOSIT_FACTORY_ADDRESS: expected.depositFactory,
      CHAIN_LIVE_DEPOSIT_FACTORY_V2_ADDRESS: expected.depositFactoryV2,
      CHAIN_LIVE_START_BLOCK: '1',
    });
    // The deposit factories land where the platform computes deposit addresses from (v1 beside v2).
    expect(expected.depositFactory).toBe(DEPOSIT_FACTORY_ADDRESS);
    expect(expected.depositFactoryV2).toBe(DEPOSIT_FACTORY_V2_ADDRESS);
    expect(run.out.filter((l) => l.includes(' deployed in block '))).toHaveLength(5);
    // SubscriptionManagerV2 beside v1, at an address of its own (issue 37).
    expect(run.out).toContainEqual(
      expect.stringMatching(new RegExp(`^# SubscriptionManagerV2 ${expected.subscriptionManagerV2} deployed in block `)),
    );
    expect(expected.subscriptionManagerV2).not.toBe(expected.subscriptionManager);
    for (const address of Object.values(expected)) expect((await client.getCode({ address }))?.length).toBeGreaterThan(1000);
    // The key is never echoed, and the RPC URL (which may carry a provider's API key) neither.
    const printed = [...run.out, ...run.err].join('\n');
    expect(printed).not.toContain(deployer.privateKey.slice(2));
    expect(printed).not.toContain(anvil.rpcUrl);
  });

  it('verifies against a simulated deployment, whose immutables (EIP-712 domain, token) the artifact lacks', async () => {
    const { subscriptionManager, escrow } = projectContracts(build, base.usdc);
    const plan = await planDeterministicDeployment(client, PROJECT_CREATE2_SALT, [subscriptionManager, escrow]);
    const artifacts = await loadArtifacts();
    for (const contract of plan) {
      expect(contract.state).toBe('present');
      expect(await client.getCode({ address: contract.address })).toBe(contract.expectedCode);
    }
    expect(plan[0]!.expectedCode).not.toBe(artifacts.contracts.SubscriptionManager.deployedBytecode);
    expect(plan[1]!.expectedCode).not.toBe(artifacts.contracts.AgenticCommerceEscrow.deployedBytecode);
  });

  it('finds them again and verifies their code without sending a transaction, with or without a key', async () => {
    const before = await sentSoFar(client);
    for (const env of [{ DEPLOYER_PRIVATE_KEY: deployer.privateKey }, {}]) {
      const run = await deploy(['--chain', '8453', '--rpc-url', anvil.rpcUrl], env);
      expect(run.code).toBe(0);
      expect(run.settings).toMatchObject({
        CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: expected.subscriptionManager,
        CHAIN_LIVE_ESCROW_ADDRESS: expected.escrow,
        CHAIN_LIVE_DEPOSIT_FACTORY_ADDRESS: expected.depositFactory,
        CHAIN_LIVE_DEPOSIT_FACTORY_V2_ADDRESS: expected.depositFactoryV2,
        CHAIN_LIVE_START_BLOCK: '1',
      });
      expect(run.out.filter((l) => l.includes('verified: already there with the expected code'))).toHaveLength(5);
    }
    expect(await sentSoFar(client)).toEqual(before);
  });

  it('prints the test-mode variables with --mode test and takes the RPC URL from the environment', async () => {
    const run = await deploy(['--chain', 'base', '--mode', 'test'], { CHAIN_TEST_RPC_URL: anvil.rpcUrl });
    expect(run.code).toBe(0);
    expect(Object.keys(run.settings)).toEqual([
      'CHAIN_TEST_PRESET',
      'CHAIN_TEST_SUBSCRIPTION_MANAGER_ADDRESS',
      'CHAIN_TEST_ESCROW_ADDRESS',
      'CHAIN_TEST_DEPOSIT_FACTORY_ADDRESS',
      'CHAIN_TEST_DEPOSIT_FACTORY_V2_ADDRESS',
      'CHAIN_TEST_START_BLOCK',
    ]);
  });

  it('refuses a chain whose id is not the named chain', async () => {
    const before = await sentSoFar(client);
    const run = await deploy(['--chain', 'ethereum', '--rpc-url', anvil.rpcUrl, '--confirmations', '1']);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/serves chain id 8453, not Ethereum \(1\): nothing was sent/);
    expect(run.out).toEqual([]);
    expect(await sentSoFar(client)).toEqual(before);
  });

  it('reports code at a contract address that is not what the build deploys, and sends nothing', async () => {
    const snapshot = (await client.request({ method: 'evm_snapshot' } as never)) as Hex;
    try {
      await client.request({ method: 'anvil_setCode', params: [expected.escrow, '0x6080604052600080fd'] } as never);
      const before = await sentSoFar(client);
      const run = await deploy(['--chain', 'base', '--rpc-url', anvil.rpcUrl, '--confirmations', '1']);
      expect(run.code).toBe(1);
      const errors = run.err.filter((l) => l.startsWith('Error'));
      expect(errors).toEqual([
        `Error: AgenticCommerceEscrow at ${expected.escrow} holds code that differs from what this build deploys there; nothing was sent.`,
      ]);
      expect(run.out).toEqual([]);
      expect(await sentSoFar(client)).toEqual(before);
    } finally {
      await client.request({ method: 'evm_revert', params: [snapshot] } as never);
    }
  });
});

describe('contracts:deploy on a chain without the CREATE2 factory', () => {
  let anvil: AnvilInstance;
  let client: PublicClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: base.chainId, extraArgs: ['--disable-default-create2-deployer'] });
    client = clientOf(anvil);
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('says what is missing, then deploys the factory from its presigned transaction when asked', async () => {
    const refused = await deploy(['--chain', 'base', '--rpc-url', anvil.rpcUrl, '--confirmations', '1']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/no CREATE2 factory at 0x4e59b44847b379578588920cA78FbF26c0B4956C.*--deploy-factory/);
    expect(await client.getTransactionCount({ address: deployer.address })).toBe(0);

    const run = await deploy(['--chain', 'base', '--rpc-url', anvil.rpcUrl, '--confirmations', '1', '--deploy-factory']);
    expect(run.err.join('\n')).not.toMatch(/^Error/m);
    expect(run.code).toBe(0);
    expect(await client.getCode({ address: CREATE2_FACTORY_ADDRESS })).toBe(CREATE2_FACTORY_RUNTIME_CODE);
    // Same factory, salt and init code: the same addresses as on any other chain with Base's USDC.
    expect(run.settings).toMatchObject({
      CHAIN_LIVE_SUBSCRIPTION_MANAGER_ADDRESS: expected.subscriptionManager,
      CHAIN_LIVE_ESCROW_ADDRESS: expected.escrow,
    });
  });
});

/** An RPC endpoint in front of anvil that refuses, or silently drops, eth_call state overrides. */
async function endpointWithoutOverrides(
  upstream: string,
  behaviour: 'refuse' | 'ignore',
): Promise<{ url: string; close: () => Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failure here is an unhandled rejection, which fails the test run
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
    if (call.method === 'eth_call' && call.params.length > 2) {
      if (behaviour === 'refuse') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32602, message: 'too many arguments' } }));
        return;
      }
      call.params = call.params.slice(0, 2);
    }
    const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });
    response.setHeader('content-type', 'application/json');
    response.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('contracts:deploy through an endpoint without state overrides', () => {
  let anvil: AnvilInstance;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: base.chainId });
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('says the endpoint cannot do the code check, whether it refuses overrides or ignores them, and sends nothing', async () => {
    for (const behaviour of ['refuse', 'ignore'] as const) {
      const endpoint = await endpointWithoutOverrides(anvil.rpcUrl, behaviour);
      try {
        const run = await deploy(['--chain', 'base', '--rpc-url', endpoint.url, '--confirmations', '1']);
        expect(run.code, behaviour).toBe(1);
        expect(run.err.join('\n'), behaviour).toMatch(/eth_call state overrides, and the RPC endpoint does not support them/);
      } finally {
        await endpoint.close();
      }
    }
    expect(await clientOf(anvil).getBlockNumber()).toBe(0n);
  });
});

describe('contracts:deploy arguments', () => {
  it('answers bad arguments with the usage and exit code 2, before touching any chain', async () => {
    for (const args of [
      [],
      ['--chain', 'solana', '--rpc-url', 'http://127.0.0.1:1'],
      ['--chain', 'base'],
      ['--chain', 'base', '--rpc-url', 'http://127.0.0.1:1', '--confirmations', '0'],
      ['--chain', 'base', '--rpc-url', 'http://127.0.0.1:1', '--verbose'],
    ]) {
      const run = await deploy(args, {});
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err.join('\n')).toContain('Usage: npm run contracts:deploy');
    }
    const unknown = await deploy(['--chain', 'solana', '--rpc-url', 'http://127.0.0.1:1'], {});
    expect(unknown.err[0]).toBe('Error: --chain solana is not a known chain');
    expect(unknown.err.join('\n')).toContain(
      'base (8453), base-sepolia (84532), ethereum (1), arbitrum (42161), optimism (10), polygon (137)',
    );
  });

  it('never takes a key as an argument, and never echoes one', async () => {
    for (const args of [['--private-key', deployer.privateKey], [`--private-key=${deployer.privateKey}`], ['--key', deployer.privateKey]]) {
      const run = await deploy(['--chain', 'base', '--rpc-url', 'http://127.0.0.1:1', ...args], {});
      expect(run.code).toBe(2);
      expect(run.err[0]).toMatch(/Keys are never taken as arguments.*DEPLOYER_PRIVATE_KEY/);
      expect(run.err.join('\n')).not.toContain(deployer.privateKey.slice(2));
    }
    const malformed = await deploy(['--chain', 'base', '--rpc-url', 'http://127.0.0.1:1'], {
      DEPLOYER_PRIVATE_KEY: 'not-a-key-but-secret',
    });
    expect(malformed.code).toBe(2);
    expect(malformed.err.join('\n')).not.toContain('not-a-key-but-secret');
  });

  it('exits non-zero from the npm script on bad arguments', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/deploy-contracts.ts', '--chain', 'nowhere'], {
      cwd: findProjectRoot(),
      encoding: 'utf8',
      env: { ...process.env, DEPLOYER_PRIVATE_KEY: '' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: npm run contracts:deploy');
  });
});
