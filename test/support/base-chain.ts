// A Base-shaped chain for end-to-end tests: anvil with Base's chain id and 2-second blocks, Circle's
// USDC at Base's canonical USDC address, the project's contracts deployed by `npm run contracts:deploy`,
// and the CHAIN_LIVE_* settings an operator would paste (docs/operations.md, "Go live on Base").
import { type PublicClient, createPublicClient, http } from 'viem';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { runContractsDeploy } from '../../src/chain/deployment/deploy-command.js';
import { type ChainPreset, findChainPreset } from '../../src/chain/presets.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { installUsdcAt } from '../../tools/dev/chain/canonical-usdc.js';
import { loadContractBuild } from '../../tools/dev/chain/contract-build.js';
import { fundPayers } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';

export const BASE: ChainPreset = findChainPreset('base')!;

export type BaseChain = {
  anvil: AnvilInstance;
  client: PublicClient;
  /** What contracts:deploy printed to paste, plus the RPC URL and keys: a live mode on the Base preset. */
  liveEnv: Record<string, string>;
  /** contracts:deploy's output (stdout, stderr). */
  deployOutput: { out: string[]; err: string[] };
  stop: () => Promise<void>;
};

export async function startBaseChain(input: { payers: readonly `0x${string}`[]; payerBalance: bigint }): Promise<BaseChain> {
  const anvil = await startAnvil({ chainId: BASE.chainId, blockTime: 2 });
  try {
    const client = createPublicClient({
      chain: chainDefinition(BASE.chainId, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
      pollingInterval: 200,
      cacheTime: 0,
    });
    await installUsdcAt(client, BASE.usdc);
    await fundPayers({
      rpcUrl: anvil.rpcUrl,
      minterKey: DEV_ACCOUNTS.usdcMasterMinter.privateKey,
      token: BASE.usdc,
      payers: input.payers,
      balance: input.payerBalance,
    });

    const out: string[] = [];
    const err: string[] = [];
    // One confirmation for the deployment itself: waiting for Base's 12 at 2 s a block adds nothing here.
    const code = await runContractsDeploy(['--chain', BASE.name, '--rpc-url', anvil.rpcUrl, '--confirmations', '1'], {
      env: { DEPLOYER_PRIVATE_KEY: DEV_ACCOUNTS.deployer.privateKey },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      loadBuild: loadContractBuild,
    });
    if (code !== 0) throw new Error(`contracts:deploy exited ${code}:\n${err.join('\n')}`);
    const pasted = Object.fromEntries(
      out.filter((line) => /^CHAIN_LIVE_[A-Z_]+=/.test(line)).map((line) => line.split('=') as [string, string]),
    );
    const liveEnv = {
      ...pasted,
      CHAIN_LIVE_RPC_URL: anvil.rpcUrl,
      CHAIN_LIVE_RELAYER_KEY: DEV_ACCOUNTS.relayer.privateKey,
      CHAIN_LIVE_OPERATOR_KEY: DEV_ACCOUNTS.operator.privateKey,
    };
    return { anvil, client, liveEnv, deployOutput: { out, err }, stop: () => anvil.stop() };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
