// The demo merchant's test-mode agent wallet, funded on the dev chain so that
// `npm start` runs agent escrow jobs out of the box, and the dev ERC-4626 vault
// of autoConvertToYield (tools/dev/yield-vault.ts) deployed beside it. A merchant
// funds its own wallet on a real chain (docs/agents.md, custody); this is
// development only.
import { createPublicClient, createWalletClient, http, parseEther, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ensureAgentWallet } from '../../src/agents/service.js';
import { fundPayers } from './chain/deploy.js';
import { sendDevTransaction } from './chain/dev-receipts.js';
import { DEV_ACCOUNTS } from './chain/test-accounts.js';
import type { Sql } from '../../src/db/client.js';
import type { SecretBox } from '../../src/security/encryption.js';
import type { DevChainInfo } from './chain/dev-chain.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';
import { ensureDevYieldVault } from './yield-vault.js';

/** USDC (6 decimals) and gas the demo wallet is topped up to on every start. */
const USDC_BALANCE = 10_000n * 1_000_000n;
const GAS_BALANCE = parseEther('1');

export async function fundDemoAgentWallet(sql: Sql, secretBox: SecretBox, merchantId: string, chain: DevChainInfo): Promise<Address> {
  await ensureDevYieldVault({ rpcUrl: chain.rpcUrl, token: chain.token, funderKey: DEV_ACCOUNTS.deployer.privateKey });
  const wallet = await ensureAgentWallet(sql, secretBox, { merchantId, livemode: false });
  const address = wallet.address as Address;
  await fundPayers({
    rpcUrl: chain.rpcUrl,
    minterKey: DEV_ACCOUNTS.usdcMasterMinter.privateKey,
    token: chain.token,
    payers: [address],
    balance: USDC_BALANCE,
  });
  const viemChain = chainDefinition(chain.chainId, chain.rpcUrl);
  const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) });
  const shortfall = GAS_BALANCE - (await client.getBalance({ address }));
  if (shortfall > 0n) {
    const deployer = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS.deployer.privateKey),
      chain: viemChain,
      transport: http(chain.rpcUrl),
    });
    await sendDevTransaction(client, deployer, { to: address, value: shortfall });
  }
  return address;
}
