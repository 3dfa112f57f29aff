// The refund allowance: the USDC allowance the merchant's payout wallet grants the operator (once,
// by an EIP-2612 permit or a plain approve), which lets the operator send refunds by transferFrom.
// Chain reads only; what the platform has already committed of it is in repo.allowanceInUse.
import { type Address, getAddress } from 'viem';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import type { ChainSettings } from '../chain/config.js';
import { fiatTokenAbi } from '../chain/fiat-token-abi.js';
import { privateKeyToAccount } from 'viem/accounts';

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
