// `npm start`'s chain: anvil with the contracts, funded payers, and state kept in the data dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { fiatTokenAbi } from '../../src/chain/generated/fiat-token.js';
import { DEV_ACCOUNTS } from '../../tools/dev/chain/test-accounts.js';
import { startDevChain } from '../../tools/dev/chain/dev-chain.js';
import { chainDefinition } from '../../src/chain/chain-definition.js';

const dataDir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('startDevChain', () => {
  it('deploys, funds payers, and keeps balances across a restart (anvil --state)', async () => {
    const first = await startDevChain({ dataDir, rpcUrl: '' });
    const info = first.info;
    expect(info).toMatchObject({ chainId: 31337, relayer: DEV_ACCOUNTS.relayer.address, operator: DEV_ACCOUNTS.operator.address });
    expect(info.payers).toHaveLength(DEV_ACCOUNTS.payers.length);
    const chain = chainDefinition(info.chainId, info.rpcUrl);
    const payer = privateKeyToAccount(info.payers[0]!.privateKey);
    const wallet = createWalletClient({ account: payer, chain, transport: http(info.rpcUrl) });
    let pub = createPublicClient({ chain, transport: http(info.rpcUrl), pollingInterval: 50 });
    const funded = await pub.readContract({ address: info.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [payer.address] });
    expect(funded).toBeGreaterThan(0n);
    const hash = await wallet.writeContract({
      address: info.token,
      abi: fiatTokenAbi,
      functionName: 'transfer',
      args: [DEV_ACCOUNTS.merchant.address, 7n],
    });
    await pub.waitForTransactionReceipt({ hash });
    await first.stop();

    const second = await startDevChain({ dataDir, rpcUrl: '' });
    try {
      expect(second.info.token).toBe(info.token);
      pub = createPublicClient({ chain: chainDefinition(info.chainId, second.info.rpcUrl), transport: http(second.info.rpcUrl) });
      // The merchant's 7 survived the restart; the payer was topped back up to the target balance.
      expect(
        await pub.readContract({
          address: info.token,
          abi: fiatTokenAbi,
          functionName: 'balanceOf',
          args: [DEV_ACCOUNTS.merchant.address],
        }),
      ).toBe(7n);
      expect(await pub.readContract({ address: info.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [payer.address] })).toBe(
        funded,
      );
    } finally {
      await second.stop();
    }
  });
});
