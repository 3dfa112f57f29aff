// The API shape of a payment session (and its checkout URL), shared by the routes, the
// activities that record its events and the invoices that link to it.
import { getAddress } from 'viem';
import * as repo from './repo.js';
import type { CheckoutChain, PaymentSession, SessionDeposit } from './schemas.js';
import { findChainPreset } from '../chain/presets.js';
import { amountDue, amountOverpaid, amountRefundable } from './refundable.js';

export function checkoutUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/checkout/${id}`;
}

/** Written in a success URL, replaced by the session's id where the customer is sent (as Stripe's {CHECKOUT_SESSION_ID}). */
export const SESSION_ID_PLACEHOLDER = '{PAYMENT_SESSION_ID}';

/** The success URL the customer is sent to: the placeholder, as written or percent-encoded, becomes the id. */
export function successUrlFor(successUrl: string | null, sessionId: string): string | null {
  return successUrl?.replace(/\{PAYMENT_SESSION_ID\}|%7BPAYMENT_SESSION_ID%7D/gi, sessionId) ?? null;
}

export function renderPaymentSession(row: repo.PaymentSessionRow, publicBaseUrl: string): PaymentSession {
  return {
    id: row.id,
    object: 'payment_session',
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    payTo: row.payTo,
    token: row.token,
    chainId: Number(row.chainId),
    acceptedChainIds: repo.acceptedChainsOf(row).map((chain) => chain.chainId),
    transactionChainId: row.transactionChainId === null ? null : Number(row.transactionChainId),
    expiresAt: row.expiresAt.toISOString(),
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    metadata: row.metadata,
    checkoutUrl: checkoutUrl(publicBaseUrl, row.id),
    invoiceId: row.invoiceId,
    productId: row.productId,
    productName: row.productName,
    payer: payerOf(row),
    customerId: row.customerId,
    customerEmail: row.customerEmail,
    transactionHash: row.transactionHash,
    completedAt: row.completedAt?.toISOString() ?? null,
    x402: row.x402
      ? {
          scheme: row.x402.scheme,
          network: row.x402.network,
          payer: getAddress(row.x402.payer),
          transaction: row.x402.transaction,
          resource: { url: row.x402.resourceUrl, description: row.x402.resourceDescription, mimeType: row.x402.resourceMimeType },
        }
      : null,
    deposit: renderDeposit(row),
    amountRefundable: amountRefundable(row).toString(),
    amountRefunded: BigInt(row.amountRefunded).toString(),
    testClock: row.testClockId,
    lastPaymentError: row.lastPaymentError,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The paying wallet: the relayed payment's signer, else the one sender of the transfers credited to it (checksummed). */
function payerOf(row: Pick<repo.PaymentSessionRow, 'payer' | 'depositSender'>): string | null {
  if (row.payer) return row.payer;
  return row.depositSender ? getAddress(row.depositSender) : null;
}

/** EIP-681: a transfer of `amount` base units of `token` to `to` on chain `chainId` (what wallets read from a QR code). */
export function transferUri(token: string, chainId: number, to: string, amount: string): string {
  return `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${amount}`;
}

export function renderDeposit(
  row: Pick<
    repo.PaymentSessionRow,
    'depositAddress' | 'status' | 'amount' | 'amountReceived' | 'amountRelayed' | 'token' | 'chainId' | 'acceptedChains' | 'payTo'
  >,
): SessionDeposit | null {
  if (!row.depositAddress) return null;
  const address = row.depositAddress;
  // A relayed payment counts toward the session as transfers do: what remains and the excess are of both.
  const remaining = amountDue(row);
  const amountRemaining = remaining.toString();
  const uriAmount = remaining > 0n ? amountRemaining : row.amount;
  return {
    address,
    amountReceived: row.amountReceived,
    amountRemaining,
    amountExcess: amountOverpaid(row).toString(),
    paymentUri: transferUri(row.token, Number(row.chainId), address, uriAmount),
    // One address on every chain paying the same payout (CREATE2); a chain with its own payout has its own.
    networks: repo.acceptedChainsOf(row).map((chain) => {
      const onChain = repo.depositAddressOn(row, chain.chainId) ?? address;
      return {
        chainId: chain.chainId,
        network: networkName(chain.chainId),
        token: chain.token,
        address: onChain,
        payTo: repo.payToOn(row, chain.chainId),
        paymentUri: transferUri(chain.token, chain.chainId, onChain, uriAmount),
      };
    }),
  };
}

/** The chain's name for people. */
export function networkName(chainId: number): string {
  // The local chains of `npm start` (31337 and the next ids).
  if (chainId >= 31337 && chainId < 31347) return `Anvil (local chain ${chainId})`;
  return findChainPreset(String(chainId))?.displayName ?? `Chain ${chainId}`;
}

/**
 * A chain as the hosted checkout offers it; a preset's chain comes with what a wallet needs to add it (EIP-3085).
 * `payTo` (a payment session's payout on the chain) is absent where nothing is paid to it (a plan's enrolment offer
 * names the payout in its terms; the renewal page signs a permit only).
 */
export function checkoutChainOf(chain: repo.AcceptedChain, payTo?: string): CheckoutChain {
  const preset = findChainPreset(String(chain.chainId));
  return {
    chainId: chain.chainId,
    network: networkName(chain.chainId),
    token: chain.token,
    ...(payTo === undefined ? {} : { payTo }),
    addChain: preset
      ? {
          chainId: `0x${preset.chainId.toString(16)}`,
          chainName: preset.displayName,
          nativeCurrency: { name: preset.nativeSymbol, symbol: preset.nativeSymbol, decimals: 18 },
          rpcUrls: [preset.walletRpcUrl],
          blockExplorerUrls: [preset.explorerUrl],
        }
      : null,
  };
}
