// Escrow and yield vault pay in the token of their mode: the agent wallet's
// approvals check it first (src/agents/mode-token.ts), on the dev chain's
// Circle USDC and against a mode configured with another token.
import { createPublicClient, http, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEscrowToken, assertVaultAsset, ModeTokenMismatchError } from '../../src/agents/mode-token.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { type AnvilInstance, startAnvil } from '../../src/chain/anvil.js';
import { type DeployedContracts, deployContracts } from '../../tools/dev/chain/deploy.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { ensureDevYieldVault } from '../../tools/dev/yield-vault.js';

let anvil: AnvilInstance;
let deployed: DeployedContracts;
let client: PublicClient;

beforeAll(async () => {
  anvil = await startAnvil();
  deployed = await deployContracts({ rpcUrl: anvil.rpcUrl, deployerKey: DEV_ACCOUNTS.deployer.privateKey });
  client = createPublicClient({ chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) }) as PublicClient;
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
});

describe("the mode's token", () => {
  it("the dev escrow and yield vault hold the dev chain's USDC", async () => {
    const vault = await ensureDevYieldVault({ rpcUrl: anvil.rpcUrl, token: deployed.token, funderKey: DEV_ACCOUNTS.deployer.privateKey });
    const settings = { chainId: anvil.chainId, escrow: deployed.escrow, token: deployed.token };
    await expect(assertEscrowToken(client, settings)).resolves.toBeUndefined();
    await expect(assertVaultAsset(client, settings, vault)).resolves.toBeUndefined();
  });

  it('refuses an escrow or a vault of another token than the mode configures', async () => {
    const vault = await ensureDevYieldVault({ rpcUrl: anvil.rpcUrl, token: deployed.token, funderKey: DEV_ACCOUNTS.deployer.privateKey });
    const otherToken = DEV_ACCOUNTS.merchant.address; // any other address configured as the token
    const settings = { chainId: anvil.chainId, escrow: deployed.escrow, token: otherToken };
    await expect(assertEscrowToken(client, settings)).rejects.toBeInstanceOf(ModeTokenMismatchError);
    await expect(assertVaultAsset(client, settings, vault)).rejects.toThrow(/yield vault .* holds .*, not this mode's token/);
  });
});
