// The `cashflow` capability's autoConvertToYield (docs/agents.md, Cashflow):
// once a day (workflows/agent-daily.ts) the merchant's agent wallet keeps
// `minimumLiquidReserveCents` liquid and parks the rest in the mode's ERC-4626
// vault (CHAIN_<MODE>_YIELD_VAULT_ADDRESS), and takes back from the vault what
// the liquid balance lacks. Every call goes through the one transaction sender
// under a purpose key, recorded before it is sent:
//   yield:<vault>:allowance:<wallet>        the token approve of the vault (once)
//   yield:<vault>:<wallet>:<day>:deposit     at most one deposit a day
//   yield:<vault>:<wallet>:<day>:withdraw    at most one withdrawal a day
// A retried activity finds the day's recorded move and follows it instead of
// deciding again, so a move is sent and recorded once.
import { Context } from '@temporalio/activity';
import {
  decodeFunctionData,
  encodeFunctionData,
  erc4626Abi,
  formatUnits,
  getAddress,
  maxUint256,
  parseTransaction,
  type Address,
  type Hex,
} from 'viem';
import { yieldMove } from '../src/agents/cashflow.js';
import { agentWalletAccount } from '../src/agents/escrow.js';
import * as agentRepo from '../src/agents/repo.js';
import { recordAgentAction } from '../src/agents/service.js';
import { fiatTokenAbi } from '../src/chain/generated/fiat-token.js';
import { assertVaultAsset } from '../src/agents/mode-token.js';
import { publicClientFor } from '../src/chain/clients.js';
import type { ChainConfig } from '../src/chain/config.js';
import { findLivePurpose } from '../src/chain/ledger-repo.js';
import { createReceiptWaiter } from '../src/chain/receipts.js';
import { createTransactionSender } from '../src/chain/sender.js';
import { DEV_SECRETS_KEY } from '../src/config.js';
import type { Sql } from '../src/db/client.js';
import type { EventDispatcher } from '../src/events/dispatch.js';
import { createSecretBox } from '../src/security/encryption.js';

export type AgentYieldActivityDeps = { sql: Sql; chain?: ChainConfig; secretsEncryptionKey?: Buffer; events: EventDispatcher };

export type YieldRebalance =
  | { action: 'deposit' | 'withdraw'; amount: string; transactionId: string; liquid: string; inVault: string }
  | { action: 'none' | 'disabled' | 'no_vault' | 'reverted'; liquid?: string; inVault?: string };

const GAS = { approve: 100_000n, deposit: 250_000n, withdraw: 250_000n } as const;
export const yieldPurpose = (vault: Address, wallet: Address, day: string, action: 'deposit' | 'withdraw') =>
  `yield:${vault}:${wallet}:${day}:${action}`;
export const yieldAllowancePurpose = (vault: Address, wallet: Address) => `yield:${vault}:allowance:${wallet}`;

export function createAgentYieldActivities(deps: AgentYieldActivityDeps) {
  const { sql, events } = deps;
  const secretBox = createSecretBox(deps.secretsEncryptionKey ?? DEV_SECRETS_KEY);

  return {
    /** The day's rebalancing of one merchant's agent wallet against its reserve (see the module comment). */
    async rebalanceAgentYield(input: { merchantId: string; livemode: boolean; day: string }): Promise<YieldRebalance> {
      const scope = { merchantId: input.merchantId, livemode: input.livemode };
      const config = await agentRepo.findConfig(sql, scope);
      if (!config?.config.enabledCapabilities.includes('cashflow') || !config.config.cashflow.autoConvertToYield)
        return { action: 'disabled' };
      const settings = input.livemode ? deps.chain?.live : deps.chain?.test;
      if (!settings?.yieldVault) return { action: 'no_vault' };
      if (!(await agentRepo.findWallet(sql, scope))) return { action: 'disabled' };
      const vault = settings.yieldVault;
      const account = await agentWalletAccount(sql, secretBox, scope);
      const client = publicClientFor(settings);
      const sender = createTransactionSender({ sql, client, account, chainId: settings.chainId });
      const receipts = createReceiptWaiter(client, settings.pollIntervalMs);
      const wallet = account.address;
      const context = (() => {
        try {
          return Context.current();
        } catch {
          return undefined;
        }
      })();
      const timer = context ? setInterval(() => context.heartbeat(), 2_000) : undefined;
      try {
        const send = async (purpose: string, to: Address, data: Hex, gas: bigint) => {
          const row = await sender.send({ purpose, to, data, gas });
          const settled = await sender.settle(row, { receipts, stuckAfterMs: settings.stuckAfterSeconds * 1000 });
          return { row, settled };
        };
        const balances = async () => {
          const [liquid, inVault] = await Promise.all([
            client.readContract({ address: settings.token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [wallet] }),
            client.readContract({ address: vault, abi: erc4626Abi, functionName: 'maxWithdraw', args: [wallet] }),
          ]);
          return { liquid, inVault };
        };

        // A move of this day already recorded (an earlier attempt): follow it, never decide again.
        let move: { action: 'deposit' | 'withdraw'; amount: bigint; data: Hex } | undefined;
        for (const action of ['deposit', 'withdraw'] as const) {
          const recorded = await findLivePurpose(sql, settings.chainId, yieldPurpose(vault, wallet, input.day, action));
          if (!recorded) continue;
          const data = parseTransaction(recorded.rawTransaction as Hex).data!;
          move = { action, amount: decodeFunctionData({ abi: erc4626Abi, data }).args![0] as bigint, data };
        }
        const before = await balances();
        if (!move) {
          const decided = yieldMove(before.liquid, before.inVault, config.config.cashflow.minimumLiquidReserveCents);
          if (decided.action === 'none') return { action: 'none', liquid: before.liquid.toString(), inVault: before.inVault.toString() };
          move = {
            ...decided,
            data:
              decided.action === 'deposit'
                ? encodeFunctionData({ abi: erc4626Abi, functionName: 'deposit', args: [decided.amount, wallet] })
                : encodeFunctionData({ abi: erc4626Abi, functionName: 'withdraw', args: [decided.amount, wallet, wallet] }),
          };
        }
        if (move.action === 'deposit') {
          await assertVaultAsset(client, settings, vault);
          const allowance = await client.readContract({
            address: settings.token,
            abi: fiatTokenAbi,
            functionName: 'allowance',
            args: [wallet, vault],
          });
          if (allowance < move.amount) {
            const approved = await send(
              yieldAllowancePurpose(vault, wallet),
              settings.token,
              encodeFunctionData({ abi: fiatTokenAbi, functionName: 'approve', args: [vault, maxUint256] }),
              GAS.approve,
            );
            if (approved.settled.outcome !== 'success')
              throw new Error(`the vault approve of ${wallet} did not land (${approved.settled.outcome})`);
          }
        }
        const { settled } = await send(yieldPurpose(vault, wallet, input.day, move.action), vault, move.data, GAS[move.action]);
        if (settled.outcome === 'dropped') throw new Error(`the yield ${move.action} of ${wallet} was dropped`);
        const after = await balances();
        const succeeded = settled.outcome === 'success';
        const hash = settled.receipt.transactionHash;
        const amountText = `${formatUnits(move.amount, 6)} USDC`;
        const eventId = await sql.begin((tx) =>
          recordAgentAction(tx, {
            ...scope,
            capability: 'cashflow',
            actionType: move.action === 'deposit' ? 'yield_deposited' : 'yield_withdrawn',
            outcome: succeeded ? 'succeeded' : 'failed',
            summary: succeeded
              ? move.action === 'deposit'
                ? `Moved ${amountText} above the liquid reserve from the agent wallet into the yield vault.`
                : `Took ${amountText} back from the yield vault to restore the agent wallet's liquid reserve.`
              : `The yield ${move.action} of ${amountText} reverted.`,
            actionKey: `cashflow:${input.day}:yield:${move.action}`,
            transactionId: hash,
            details: {
              day: input.day,
              vault: getAddress(vault),
              amount: move.amount.toString(),
              liquidAfter: after.liquid.toString(),
              inVaultAfter: after.inVault.toString(),
            },
          }),
        );
        if (eventId) await events.dispatch(sql, [eventId]);
        if (!succeeded) return { action: 'reverted', liquid: after.liquid.toString(), inVault: after.inVault.toString() };
        return {
          action: move.action,
          amount: move.amount.toString(),
          transactionId: hash,
          liquid: after.liquid.toString(),
          inVault: after.inVault.toString(),
        };
      } finally {
        if (timer) clearInterval(timer);
      }
    },
  };
}

export type AgentYieldActivities = ReturnType<typeof createAgentYieldActivities>;
