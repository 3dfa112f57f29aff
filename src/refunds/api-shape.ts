// A refund as the API shows it (responses and the data.object of refund events).
import { encodeFunctionData, getAddress } from 'viem';
import type { RefundRow } from './repo.js';
import type { Refund } from './schemas.js';

const erc20TransferAbi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/** The hosted refund-claim page of a claim token (served by src/refunds/claim-routes.ts). */
export function refundClaimUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/refund-claims/${encodeURIComponent(token)}`;
}

/** `publicBaseUrl` makes the claim link absolute; without it (events rendered in activities) the link is a path. */
export function renderRefund(row: RefundRow, publicBaseUrl = ''): Refund {
  const toAddress = row.toAddress;
  return {
    id: row.id,
    object: 'refund',
    paymentSessionId: row.paymentSessionId,
    invoiceId: row.invoiceId,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    method: row.method,
    // The operator sends an allowance refund: no transfer for the merchant's wallet to send as well.
    instructions:
      row.method === 'allowance' || toAddress === null
        ? null
        : {
            chainId: Number(row.chainId),
            token: row.token,
            from: row.fromAddress,
            to: toAddress,
            amount: row.amount,
            call: {
              to: row.token,
              data: encodeFunctionData({
                abi: erc20TransferAbi,
                functionName: 'transfer',
                args: [getAddress(toAddress), BigInt(row.amount)],
              }),
              value: '0',
              functionName: 'transfer',
              args: [toAddress, row.amount],
            },
          },
    recipient: toAddress,
    recipientSource: row.recipientSource,
    depositId: row.depositId,
    claimUrl: row.status === 'requires_action' && row.claimToken ? refundClaimUrl(publicBaseUrl, row.claimToken) : null,
    claimedAt: row.claimedAt?.toISOString() ?? null,
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    failedAt: row.failedAt?.toISOString() ?? null,
    succeededAt: row.succeededAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    chainId: Number(row.chainId),
    metadata: row.metadata,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}
