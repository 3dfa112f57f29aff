// The refund allowance: the USDC allowance the merchant's payout wallet grants the operator (once,
// by an EIP-2612 permit or a plain approve), which lets the operator send refunds by transferFrom.
// Chain reads only; what the platform has already committed of it is in repo.allowanceInUse.
import { type Address, type Hex, encodeFunctionData, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import type { ChainSettings } from '../chain/config.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { createReceiptWaiter } from '../chain/receipts.js';
import { createTransactionSender, type Settled } from '../chain/sender.js';
import { signingAccount } from '../chain/signing-account.js';
import { splitSig } from '../chain/typed-data.js';
import type { PoolSql } from '../db/client.js';

/** The operator that sends refunds in this mode, if the deployment has one. */
export function refundOperatorOf(settings: ChainSettings): Address | undefined {
  if (!settings.operatorKey) return undefined;
  return settings.operator ?? privateKeyToAccount(settings.operatorKey).address;
}

export type AllowanceReading = { allowance: bigint; balance: bigint; permitNonce: bigint };

/** The payout wallet's allowance for the operator, its balance and its next EIP-2612 nonce, at the latest block. */
export async function readRefundAllowance(settings: ChainSettings, owner: Address, operator: Address): Promise<AllowanceReading> {
  const client = publicClientFor(settings);
  const token = settings.token;
  const [allowance, balance, permitNonce] = await withSafeChainErrors(() =>
    Promise.all([
      client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'allowance', args: [getAddress(owner), operator] }),
      client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [getAddress(owner)] }),
      client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [getAddress(owner)] }),
    ]),
  );
  return { allowance, balance, permitNonce };
}

/**
 * Sends the payout wallet's signed EIP-2612 permit from the operator (who pays the gas) through the one
 * transaction sender, under a purpose per owner and permit nonce: a retried request follows the
 * transaction already recorded. Waits until it is mined; answers how it ended.
 */
export async function submitRefundPermit(
  sql: PoolSql,
  settings: ChainSettings,
  permit: { owner: Address; spender: Address; value: bigint; deadline: bigint; nonce: bigint; signature: Hex },
): Promise<Settled> {
  if (!settings.operatorKey) throw new Error('no operator key');
  const client = publicClientFor(settings);
  const sender = createTransactionSender({ sql, client, account: signingAccount(settings.operatorKey), chainId: settings.chainId });
  const { v, r, s } = splitSig(permit.signature);
  const data = encodeFunctionData({
    abi: fiatTokenAbi,
    functionName: 'permit',
    args: [permit.owner, permit.spender, permit.value, permit.deadline, v, r, s],
  });
  const purpose = `refund-permit:${permit.owner.toLowerCase()}:${permit.nonce}`;
  return withSafeChainErrors(async () => {
    const gas = await client.estimateGas({ account: sender.address, to: settings.token, data });
    const row = await sender.send({ purpose, to: settings.token, data, gas: (gas * 13n) / 10n });
    return sender.settle(row, {
      receipts: createReceiptWaiter(client, settings.pollIntervalMs),
      stuckAfterMs: settings.stuckAfterSeconds * 1000,
    });
  });
}
