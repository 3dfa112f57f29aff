// Refunds of completed payments. The service never holds the merchant's keys.
// POST /v1/refunds reserves the amount under the session's row lock. When the
// payout wallet's refund allowance for the operator covers it (beside what the
// operator's refunds in progress already take from it), the refund is the
// operator's (`allowance`, processing): its workflow sends transferFrom and it
// completes by itself. Otherwise it is the merchant wallet's (`wallet`,
// pending) with the exact ERC-20 transfer to send; POST /v1/refunds/{id}/signature
// takes the mined transaction's hash and marks the refund succeeded only after
// verifying the transfer on-chain; POST /v1/refunds/{id}/cancel releases a pending one.
import type { Client } from '@temporalio/client';
import {
  decodeEventLog,
  getAddress,
  isAddressEqual,
  recoverTypedDataAddress,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { refusalOfMinedCall } from '../chain/mined-refusal.js';
import { nameBlacklistedSide } from '../chain/token-standing.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { listedChainId, type ChainConfig } from '../chain/config.js';
import { createChainResolver } from '../test-clocks/chain-registry.js';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import { isUniqueViolation, type Db, type Sql } from '../db/client.js';
import { InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { createdRangeOf } from '../http/list-filters.js';
import { newId } from '../ids.js';
import * as invoiceRepo from '../invoices/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import { amountPaid, amountRefundable } from '../payment-sessions/refundable.js';
import { commitWithEvents } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { createWorkflowStarter, queueWorkflowStart, type QueuedWorkflowStart } from '../temporal/start-outbox.js';
import { readRefundAllowance, refundOperatorOf, submitRefundPermit } from './allowance.js';
import { findPayoutAddressOn } from '../merchants/repo.js';
import { EIP3009_TYPES, PERMIT_TYPES, readDomain } from '../chain/typed-data.js';
import { refusalOf, type Refusal } from '../chain/refusals.js';
import { recordRefundEvent } from './events.js';
import { refundClaimUrl, renderRefund } from './api-shape.js';
import * as repo from './repo.js';
import { recipientOf, refusedRecipient, type RecipientChoice } from './recipient.js';
import { claimEmail, newClaimToken, REFUND_CLAIM_EMAIL_KIND } from './claim.js';
import { queueEmail, type EmailDispatcher } from '../email/service.js';
import {
  recipientAddress,
  type CreateRefundBody,
  type GrantRefundAllowanceBody,
  type Refund,
  type RefundAllowance,
  type RefundAuthorizationBody,
  type RefundListQuery,
  type RefundRecipient,
  type UpdateRefundBody,
} from './schemas.js';
import { updateMetadata } from '../http/metadata.js';
import { refundWorkflowStart } from './starts.js';

export { renderRefund } from './api-shape.js';

const minOf = (a: bigint, b: bigint) => (a < b ? a : b);
const refuseHash = (message: string) => new InvalidRequestError(message, { param: 'transactionHash' });

/** What the hosted refund-claim page shows of a refund. */
export type ClaimView = {
  merchantName: string;
  amount: string;
  currency: string;
  chainId: number;
  status: repo.RefundStatus;
  recipient: string | null;
};
export type ClaimOutcome =
  { kind: 'claimed'; recipient: string } | { kind: 'already_claimed' } | { kind: 'invalid'; message: string } | { kind: 'not_found' };

export type RefundServiceDeps = {
  sql: Sql;
  chain: ChainConfig;
  /** Makes the refund-claim links absolute. */
  publicBaseUrl?: string;
  /** Starts the delivery of the claim emails after commit (the email outbox sweep starts any it misses). */
  emails?: EmailDispatcher;
  events: EventDispatcher;
  temporal?: Client;
  taskQueue: string;
  onStartError?: (error: unknown, start: QueuedWorkflowStart) => void;
};

/**
 * The named refusal of a reverted transaction when it is exactly this wallet refund's transfer (from the
 * payout wallet, to the token, the instructed calldata); undefined for any other transaction, which stays a
 * plain "reverted" error that changes nothing. The state is read as of the transaction's block, since the
 * issuer may lift a blacklist before the merchant records the hash.
 */
async function refusalOfRefundTransfer(
  client: PublicClient,
  refund: repo.RefundRow,
  receipt: TransactionReceipt,
): Promise<Refusal | undefined> {
  const call = renderRefund(refund).instructions?.call;
  if (!call) return undefined;
  const sent = await client.getTransaction({ hash: receipt.transactionHash });
  const isRefundTransfer =
    isAddressEqual(sent.from, getAddress(refund.fromAddress)) &&
    sent.to !== null &&
    isAddressEqual(sent.to, getAddress(refund.token)) &&
    sent.input.toLowerCase() === call.data.toLowerCase();
  if (!isRefundTransfer) return undefined;
  const refusal = await refusalOfMinedCall(
    client,
    { from: sent.from, to: sent.to!, data: sent.input, blockNumber: receipt.blockNumber },
    fiatTokenAbi,
  );
  if (!refusal) return undefined;
  // The refunded customer is the payer of the original payment; the sending payout address is the merchant's.
  return nameBlacklistedSide(
    client,
    getAddress(refund.token),
    getAddress(refund.toAddress!),
    getAddress(refund.fromAddress),
    refusal,
    receipt.blockNumber,
  );
}

/**
 * The chain a refund goes out on: the chain the money came in on (issue 39). A late deposit's own chain;
 * else the chain of the transaction that paid the session (the relayed payment, or the deposit that
 * completed it), else the session's chain.
 */
export function paymentChainOf(
  session: Pick<sessionRepo.PaymentSessionRow, 'chainId' | 'transactionChainId'>,
  lateDeposit?: { chainId: string },
): number {
  return Number(lateDeposit?.chainId ?? session.transactionChainId ?? session.chainId);
}

export function createRefundService({
  sql,
  chain,
  events,
  temporal,
  taskQueue,
  onStartError,
  publicBaseUrl = '',
  emails,
}: RefundServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, onStartError ?? (() => {}));
  const render = (row: repo.RefundRow) => renderRefund(row, publicBaseUrl);
  /** The mode's chains and the test clocks' forks: a clock's objects are paid, so refunded, on its chain (issue 39). */
  const chainOf = createChainResolver({ sql, config: chain });

  /** The claim link to the customer, when the refunded invoice has their email; the email ids to deliver after commit. */
  async function queueClaimEmail(tx: Db, row: repo.RefundRow, invoiceId: string | null): Promise<string[]> {
    const invoice = invoiceId ? await invoiceRepo.findInvoice(tx, row, invoiceId) : undefined;
    if (!invoice?.customerEmail || !row.claimToken) return [];
    const merchant = await sessionRepo.findMerchantDisplay(tx, row);
    const email = claimEmail({
      merchantName: merchant?.name ?? 'The merchant',
      amount: row.amount,
      currency: row.currency,
      url: refundClaimUrl(publicBaseUrl, row.claimToken),
    });
    return [
      await queueEmail(tx, {
        merchantId: row.merchantId,
        livemode: row.livemode,
        to: invoice.customerEmail,
        ...email,
        kind: REFUND_CLAIM_EMAIL_KIND,
      }),
    ];
  }

  /**
   * `allowance` when the payout wallet's refund allowance covers `amount` beyond what the operator's
   * refunds in progress take from it (read under a lock per payout wallet, so concurrent refunds
   * never count the same allowance twice), else `wallet`.
   */
  async function methodFor(tx: Db, livemode: boolean, chainId: number, payout: string, amount: bigint): Promise<repo.RefundMethod> {
    const settings = await chainOf(livemode, chainId);
    const operator = refundOperatorOf(settings);
    if (!operator) return 'wallet';
    await repo.lockRefundAllowance(tx, settings.chainId, livemode, payout);
    const [reading, inUse] = await Promise.all([
      readRefundAllowance(settings, getAddress(payout), operator),
      repo.allowanceInUse(tx, settings.chainId, livemode, payout),
    ]);
    return reading.allowance - inUse >= amount ? 'allowance' : 'wallet';
  }

  /** pending -> failed with the token's refusal of the recorded transfer, and `refund.failed`; a repeat answers the refund as it is. */
  async function failWalletRefund(refund: repo.RefundRow, transactionHash: Hex, refusal: Refusal): Promise<Refund> {
    const failed = await commitWithEvents(sql, events, async (tx, record) => {
      const row = await repo.markFailed(tx, refund.id, { code: refusal.code, reason: refusal.reason, transactionHash });
      if (row) await recordRefundEvent(record, 'refund.failed', row);
      return row;
    });
    if (failed) return render(failed);
    const now = (await repo.findRefund(sql, refund, refund.id))!;
    if (now.status === 'failed' && now.transactionHash === transactionHash) return render(now);
    throw new InvalidStateError(`The refund is ${now.status}; transaction ${transactionHash} reverted and changes nothing.`, {
      param: 'transactionHash',
    });
  }

  return {
    async create(scope: MerchantScope, input: CreateRefundBody): Promise<Refund> {
      if (input.customerClaim && (input.destination || input.depositId)) {
        throw new InvalidRequestError('customerClaim lets the customer name the address: not with destination or depositId.', {
          param: 'customerClaim',
        });
      }
      const { row, starts, emailIds } = await commitWithEvents(sql, events, async (tx, record) => {
        let sessionId = input.paymentSessionId;
        let invoiceId: string | null = null;
        if (input.invoiceId) {
          const invoice = await invoiceRepo.findInvoice(tx, scope, input.invoiceId);
          if (!invoice) throw new NotFoundError(`No such invoice: ${input.invoiceId}.`, { param: 'invoiceId' });
          sessionId = invoice.sessionId;
          invoiceId = invoice.id;
        }
        // The session row lock serialises refunds of one payment: the remaining amount is exact.
        const session = await sessionRepo.lockPaymentSession(tx, scope, sessionId!);
        if (!session) throw new NotFoundError(`No such payment session: ${sessionId}.`, { param: 'paymentSessionId' });
        invoiceId ??= session.invoiceId;
        const lateDeposit = input.depositId ? await repo.findLateDeposit(tx, session.id, input.depositId) : undefined;
        if (input.depositId && !lateDeposit)
          throw new NotFoundError(`No late deposit ${input.depositId} on payment session ${session.id}.`, { param: 'depositId' });
        // Paid in total (src/payment-sessions/refundable.ts), read under the lock; the recipient by the rules of recipient.ts.
        const paid = amountPaid(session);
        const found = await recipientOf(tx, session, lateDeposit);
        if (paid === 0n || found.kind === 'none') {
          throw new InvalidStateError(
            `Only a completed payment (or a late deposit) can be refunded; the payment session is ${session.status}.`,
            {
              param: input.invoiceId ? 'invoiceId' : 'paymentSessionId',
            },
          );
        }
        // The refund goes out on the chain the money came in on (issue 39): the late deposit's, else the payment's.
        const paymentChain = paymentChainOf(session, lateDeposit);
        if (input.chainId !== undefined && input.chainId !== paymentChain) {
          throw new InvalidRequestError(
            `The money came in on chain ${paymentChain}: a refund goes out there, never on chain ${input.chainId}.`,
            { param: 'chainId' },
          );
        }
        const settings = await chainOf(scope.livemode, paymentChain);
        const choice: RecipientChoice = input.destination
          ? { kind: 'known', address: getAddress(input.destination), source: 'merchant_specified' }
          : input.customerClaim
            ? { kind: 'claim' }
            : found;
        const refused = choice.kind === 'known' ? refusedRecipient(choice.address, settings, session) : undefined;
        if (refused) throw new InvalidRequestError(refused, { param: 'destination' });
        let remaining = amountRefundable(session);
        if (lateDeposit) remaining = minOf(remaining, BigInt(lateDeposit.amount) - BigInt(lateDeposit.reserved));
        const amount = input.amount === undefined ? remaining : BigInt(input.amount);
        if (remaining <= 0n)
          throw new InvalidStateError('The payment is already fully refunded (or reserved by pending refunds).', { param: 'amount' });
        if (amount > remaining) {
          const of = lateDeposit ? `deposit ${input.depositId}` : 'this payment';
          throw new InvalidRequestError(`amount ${amount} exceeds what remains refundable of ${of} (${remaining}).`, { param: 'amount' });
        }
        // A refund waiting for the customer's address takes its method once it has one.
        // Sent by the payout that received the money on that chain: a late deposit's, else the session's payTo there.
        const fromAddress = lateDeposit?.payoutAddress ?? sessionRepo.payToOn(session, settings.chainId);
        const method = choice.kind === 'known' ? await methodFor(tx, scope.livemode, settings.chainId, fromAddress, amount) : 'wallet';
        const row = await repo.insertRefund(tx, {
          id: newId('refund'),
          ...scope,
          paymentSessionId: session.id,
          invoiceId,
          amount: amount.toString(),
          currency: session.currency,
          reason: input.reason ?? null,
          method,
          chainId: settings.chainId,
          token: settings.token,
          fromAddress,
          toAddress: choice.kind === 'known' ? choice.address : null,
          recipientSource: choice.kind === 'known' ? choice.source : null,
          depositId: input.depositId ?? null,
          claimToken: choice.kind === 'claim' ? newClaimToken() : null,
          metadata: input.metadata ?? {},
        });
        await recordRefundEvent(record, 'refund.created', row, publicBaseUrl);
        const emailIds = row.claimToken ? await queueClaimEmail(tx, row, invoiceId) : [];
        const starts = row.status === 'processing' ? [await queueWorkflowStart(tx, refundWorkflowStart(taskQueue, row))] : [];
        return { row, starts, emailIds };
      });
      await starter.startAfterCommit(starts);
      await emails?.dispatch(sql, emailIds);
      return render(row);
    },

    /** Verifies the refund transfer on-chain, then pending -> succeeded. */
    async recordTransaction(scope: MerchantScope, id: string, transactionHash: string): Promise<Refund> {
      const refund = await repo.findRefund(sql, scope, id);
      if (!refund) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      const hash = transactionHash.toLowerCase() as Hex;
      if (refund.status === 'cancelled') {
        throw new InvalidStateError(
          'The refund was cancelled, so its amount is no longer reserved. If the transfer was sent anyway, create a new refund for the same amount and record this transaction on it.',
          { param: 'id' },
        );
      }
      if (refund.status === 'requires_action' || !refund.toAddress) {
        throw new InvalidStateError(
          'The refund waits for the customer to name the address on the refund-claim page: there is no transfer to record yet.',
          { param: 'id' },
        );
      }
      const toAddress = refund.toAddress;
      if (refund.method === 'allowance') {
        throw new InvalidStateError(
          'The operator sends this refund from the refund allowance; there is no transaction of yours to record.',
          { param: 'id' },
        );
      }
      if (refund.status === 'failed') {
        if (refund.transactionHash === hash) return render(refund);
        throw new InvalidStateError(
          `The refund failed (${refund.failureCode}): ${refund.failureReason} Create a new refund once the cause is gone.`,
          { param: 'id' },
        );
      }
      if (refund.status === 'succeeded') {
        if (refund.transactionHash === hash) return render(refund);
        throw new InvalidStateError('The refund already succeeded with another transaction.', { param: 'transactionHash' });
      }
      const settings = await chainOf(scope.livemode, Number(refund.chainId));
      const client = publicClientFor(settings);
      const [receipt, latest] = await withSafeChainErrors(() =>
        Promise.all([client.getTransactionReceipt({ hash }).catch(() => undefined), client.getBlockNumber()]),
      );
      if (!receipt) throw refuseHash(`No mined transaction ${hash} was found on chain ${settings.chainId}.`);
      const confirmations = latest - receipt.blockNumber + 1n;
      if (receipt.status !== 'success') {
        const refusal = await withSafeChainErrors(() => refusalOfRefundTransfer(client, refund, receipt));
        if (!refusal) throw refuseHash(`Transaction ${hash} reverted; it transferred nothing.`);
        // Final like a success: a reorg could still bring the transfer back with another outcome.
        if (confirmations < BigInt(settings.confirmations)) {
          throw refuseHash(
            `Transaction ${hash} reverted (${refusal.code}) and has ${confirmations} of the ${settings.confirmations} confirmations required; retry shortly.`,
          );
        }
        return failWalletRefund(refund, hash, refusal);
      }
      if (confirmations < BigInt(settings.confirmations)) {
        throw refuseHash(
          `Transaction ${hash} has ${confirmations} of the ${settings.confirmations} confirmations required; retry shortly.`,
        );
      }
      const matches = receipt.logs.some((log) => {
        if (!isAddressEqual(log.address, getAddress(refund.token))) return false;
        try {
          const event = decodeEventLog({ abi: fiatTokenAbi, data: log.data, topics: log.topics });
          if (event.eventName !== 'Transfer') return false;
          const args = event.args as { from: string; to: string; value: bigint };
          return (
            isAddressEqual(getAddress(args.from), getAddress(refund.fromAddress)) &&
            isAddressEqual(getAddress(args.to), getAddress(toAddress)) &&
            args.value === BigInt(refund.amount)
          );
        } catch {
          return false;
        }
      });
      if (!matches) {
        throw refuseHash(
          `Transaction ${hash} does not transfer exactly ${refund.amount} of token ${refund.token} from ${refund.fromAddress} to ${toAddress}.`,
        );
      }
      try {
        const updated = await commitWithEvents(sql, events, async (tx, record) => {
          const done = await repo.markSucceeded(tx, refund.id, hash, receipt.blockNumber);
          if (done) await recordRefundEvent(record, 'refund.succeeded', done);
          return done;
        });
        if (updated) return render(updated);
      } catch (error) {
        if (isUniqueViolation(error, 'refunds_transaction_hash'))
          throw refuseHash(`Transaction ${hash} is already recorded for another refund.`);
        throw error;
      }
      return render((await repo.findRefund(sql, scope, id))!);
    },

    /**
     * A pending wallet refund signed by the payout wallet as an EIP-3009 transfer: checked against the
     * refund (parties, amount, signer, window) before anything is sent, then pending -> processing and
     * the refund workflow has the relayer submit it.
     */
    async authorize(scope: MerchantScope, id: string, body: RefundAuthorizationBody): Promise<Refund> {
      const refund = await repo.findRefund(sql, scope, id);
      if (!refund) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      if (refund.status !== 'pending' || refund.method !== 'wallet') {
        throw new InvalidStateError(
          `Only a pending refund of method wallet takes a signed transfer; this refund is ${refund.status} (${refund.method}).`,
          { param: 'id' },
        );
      }
      const a = body.authorization;
      const mismatch = (field: string, expected: string) =>
        new InvalidRequestError(`authorization.${field} must be ${expected} for this refund.`, { param: `authorization.${field}` });
      if (!isAddressEqual(getAddress(a.from), getAddress(refund.fromAddress))) throw mismatch('from', refund.fromAddress);
      if (!refund.toAddress || !isAddressEqual(getAddress(a.to), getAddress(refund.toAddress)))
        throw mismatch('to', refund.toAddress ?? 'the claimed address');
      if (a.value !== refund.amount) throw mismatch('value', refund.amount);
      const settings = await chainOf(scope.livemode, Number(refund.chainId));
      if (!settings.relayerKey)
        throw new InvalidStateError(`${settings.mode} mode has no relayer on this deployment.`, { param: 'livemode' });
      const client = publicClientFor(settings);
      const [domain, block] = await Promise.all([
        withSafeChainErrors(() => readDomain(client, getAddress(refund.token))),
        withSafeChainErrors(() => client.getBlock()),
      ]);
      if (BigInt(a.validBefore) <= block.timestamp)
        throw new InvalidRequestError('The authorization has expired (validBefore has passed); sign a new one.', {
          param: 'authorization.validBefore',
        });
      const message = {
        from: getAddress(a.from),
        to: getAddress(a.to),
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      };
      const signer = await recoverTypedDataAddress({
        domain,
        types: EIP3009_TYPES,
        primaryType: 'TransferWithAuthorization',
        message,
        signature: body.signature as Hex,
      }).catch(() => undefined);
      if (!signer || !isAddressEqual(signer, message.from)) {
        throw new InvalidRequestError(
          `The signature is not the payout wallet's (${refund.fromAddress}) TransferWithAuthorization of this message.`,
          { param: 'signature' },
        );
      }
      const { row, starts } = await sql.begin(async (tx) => {
        const row = await repo.attachAuthorization(tx, refund.id, { ...a, from: message.from, to: message.to }, body.signature);
        if (!row) throw new InvalidStateError('The refund is no longer pending.', { param: 'id' });
        return { row, starts: [await queueWorkflowStart(tx, refundWorkflowStart(taskQueue, row))] };
      });
      await starter.startAfterCommit(starts);
      return render(row);
    },

    /** pending or requires_action -> cancelled, which releases the reserved amount. A succeeded or cancelled refund is final. */
    async cancel(scope: MerchantScope, id: string): Promise<Refund> {
      const refund = await repo.findRefund(sql, scope, id);
      if (!refund) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      const cancelled =
        refund.status === 'pending' || refund.status === 'requires_action' ? await repo.markCancelled(sql, refund.id) : undefined;
      if (cancelled) return render(cancelled);
      // Not pending (anymore: a concurrent /signature, claim or allowance grant may have just moved it on).
      const now = (await repo.findRefund(sql, scope, id))!;
      throw new InvalidStateError(`Only a pending or requires_action refund can be cancelled; this refund is ${now.status}.`, {
        param: 'id',
      });
    },

    /**
     * Carries on the payout wallet's refunds that waited for its own transfer once the refund allowance
     * covers them (oldest first, under the allowance lock): each turns `processing` (method `allowance`)
     * and its workflow start is queued in the same transaction, so it runs even if this process dies.
     */
    async resumeAwaitingAllowance(scope: MerchantScope, chainId?: number): Promise<string[]> {
      const settings = await chainOf(scope.livemode, chainId);
      const operator = refundOperatorOf(settings);
      const payout = await findPayoutAddressOn(sql, scope, settings.chainId);
      if (!operator || !payout) return [];
      const { resumed, starts } = await sql.begin(async (tx) => {
        await repo.lockRefundAllowance(tx, settings.chainId, scope.livemode, payout);
        const waiting = await repo.refundsAwaitingAllowance(tx, scope, settings.chainId, payout);
        if (waiting.length === 0) return { resumed: [] as string[], starts: [] as QueuedWorkflowStart[] };
        const [reading, inUse] = await Promise.all([
          readRefundAllowance(settings, getAddress(payout), operator),
          repo.allowanceInUse(tx, settings.chainId, scope.livemode, payout),
        ]);
        let available = reading.allowance - inUse;
        const resumed: string[] = [];
        const starts: QueuedWorkflowStart[] = [];
        for (const refund of waiting) {
          if (BigInt(refund.amount) > available) continue;
          const moved = await repo.moveToAllowance(tx, refund.id);
          if (!moved) continue;
          available -= BigInt(refund.amount);
          resumed.push(moved.id);
          starts.push(await queueWorkflowStart(tx, refundWorkflowStart(taskQueue, moved)));
        }
        return { resumed, starts };
      });
      await starter.startAfterCommit(starts);
      return resumed;
    },

    /** Who a refund of the session would go to now, and why: what the dashboard shows before the merchant confirms. */
    async recipientPreview(scope: MerchantScope, paymentSessionId: string): Promise<RefundRecipient> {
      const session = await sessionRepo.findPaymentSession(sql, scope, paymentSessionId);
      if (!session) throw new NotFoundError(`No such payment session: ${paymentSessionId}.`, { param: 'paymentSessionId' });
      const choice = await recipientOf(sql, session);
      return {
        object: 'refund_recipient',
        paymentSessionId: session.id,
        recipient: choice.kind === 'known' ? choice.address : null,
        recipientSource: choice.kind === 'known' ? choice.source : null,
        requiresClaim: choice.kind === 'claim',
      };
    },

    /** What the hosted claim page shows: undefined for an unknown token (the page answers 404). */
    async claimView(token: string): Promise<ClaimView | undefined> {
      const refund = await repo.findRefundByClaimToken(sql, token);
      if (!refund) return undefined;
      const merchant = await sessionRepo.findMerchantDisplay(sql, refund);
      return {
        merchantName: merchant?.name ?? 'The merchant',
        amount: refund.amount,
        currency: refund.currency,
        chainId: Number(refund.chainId),
        status: refund.status,
        recipient: refund.recipientSource === 'customer_claimed' ? refund.toAddress : null,
      };
    },

    /**
     * The customer's address for a refund that waits for it: checked (format and checksum, not zero,
     * not the payout, deposit or platform addresses), then requires_action -> processing (the allowance
     * covers it: the operator sends it) or pending (the merchant's wallet sends it). Once an address is
     * set, another claim is refused and changes nothing.
     */
    async claim(token: string, address: string): Promise<ClaimOutcome> {
      const trimmed = address.trim();
      const parsed = recipientAddress.safeParse(trimmed);
      const outcome = await commitWithEvents(sql, events, async (tx): Promise<ClaimOutcome & { starts?: QueuedWorkflowStart[] }> => {
        const refund = await repo.findRefundByClaimToken(tx, token, true);
        if (!refund) return { kind: 'not_found' };
        if (refund.status !== 'requires_action') return { kind: 'already_claimed' };
        if (!parsed.success)
          return {
            kind: 'invalid',
            message: 'Enter a wallet address: 0x followed by 40 hexadecimal digits (mixed case must be a valid checksum).',
          };
        const session = await sessionRepo.lockPaymentSession(tx, refund, refund.paymentSessionId);
        const settings = await chainOf(refund.livemode, Number(refund.chainId));
        const to = getAddress(parsed.data);
        const refused = refusedRecipient(to, settings, session!);
        if (refused) return { kind: 'invalid', message: refused };
        const method = await methodFor(tx, refund.livemode, Number(refund.chainId), refund.fromAddress, BigInt(refund.amount));
        const claimed = await repo.recordClaim(tx, refund.id, to, method);
        if (!claimed) return { kind: 'already_claimed' };
        const starts = claimed.status === 'processing' ? [await queueWorkflowStart(tx, refundWorkflowStart(taskQueue, claimed))] : [];
        return { kind: 'claimed', recipient: to, starts };
      });
      if (outcome.kind === 'claimed') await starter.startAfterCommit(outcome.starts ?? []);
      const { starts: _starts, ...answer } = outcome as ClaimOutcome & { starts?: unknown };
      return answer;
    },

    /** The refund allowance of the merchant's payout wallet for the operator, and how to grant it. */
    async allowance(scope: MerchantScope, chainId?: number): Promise<RefundAllowance> {
      const settings = await chainOf(scope.livemode, chainId);
      const operator = refundOperatorOf(settings);
      // The payout wallet on this chain (its own there, else the account's) grants the allowance there.
      const owner = await findPayoutAddressOn(sql, scope, settings.chainId);
      const base = {
        object: 'refund_allowance' as const,
        chainId: settings.chainId,
        token: settings.token,
        owner,
        spender: operator ?? null,
      };
      if (!owner || !operator) return { ...base, allowance: '0', inUse: '0', available: '0', balance: '0', permit: null, approve: null };
      const [reading, inUse, domain] = await Promise.all([
        readRefundAllowance(settings, getAddress(owner), operator),
        repo.allowanceInUse(sql, settings.chainId, scope.livemode, owner),
        withSafeChainErrors(() => readDomain(publicClientFor(settings), settings.token)),
      ]);
      const available = reading.allowance > inUse ? reading.allowance - inUse : 0n;
      return {
        ...base,
        allowance: reading.allowance.toString(),
        inUse: inUse.toString(),
        available: available.toString(),
        balance: reading.balance.toString(),
        permit: {
          domain: {
            name: domain.name ?? '',
            version: domain.version ?? '',
            chainId: Number(domain.chainId),
            verifyingContract: getAddress(domain.verifyingContract!),
          },
          primaryType: 'Permit',
          nonce: reading.permitNonce.toString(),
        },
        approve: { to: settings.token, functionName: 'approve', args: [operator, reading.balance.toString()] },
      };
    },

    /**
     * Grants the refund allowance with the payout wallet's EIP-2612 permit: checked against the payout
     * address before anything is sent, then sent by the operator; answers the allowance once mined.
     */
    async grantAllowance(scope: MerchantScope, body: GrantRefundAllowanceBody): Promise<RefundAllowance> {
      const settings = await chainOf(scope.livemode, body.chainId);
      const operator = refundOperatorOf(settings);
      if (!operator)
        throw new InvalidStateError(`${settings.mode} mode has no operator on this deployment: refunds cannot be sent from an allowance.`, {
          param: 'livemode',
        });
      const owner = await findPayoutAddressOn(sql, scope, settings.chainId);
      if (!owner)
        throw new InvalidStateError('Set a payout address first: the refund allowance is granted by the payout wallet.', {
          param: 'payoutAddress',
        });
      const client = publicClientFor(settings);
      const [reading, domain, block] = await Promise.all([
        readRefundAllowance(settings, getAddress(owner), operator),
        withSafeChainErrors(() => readDomain(client, settings.token)),
        withSafeChainErrors(() => client.getBlock()),
      ]);
      const deadline = BigInt(body.deadline);
      if (deadline <= block.timestamp)
        throw new InvalidRequestError('The permit deadline has passed; sign a new permit.', { param: 'deadline' });
      const message = { owner: getAddress(owner), spender: operator, value: BigInt(body.value), nonce: reading.permitNonce, deadline };
      const signer = await recoverTypedDataAddress({
        domain,
        types: PERMIT_TYPES,
        primaryType: 'Permit',
        message,
        signature: body.signature as Hex,
      }).catch(() => undefined);
      if (!signer || !isAddressEqual(signer, message.owner)) {
        throw new InvalidRequestError(
          `The signature is not the payout wallet's (${message.owner}) permit for the operator ${operator} of this value, deadline and nonce ${reading.permitNonce}.`,
          { param: 'signature' },
        );
      }
      let settled;
      try {
        settled = await submitRefundPermit(sql, settings, { ...message, signature: body.signature as Hex });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal) throw new InvalidRequestError(`The token refused the permit: ${refusal.reason}`, { param: 'signature' });
        throw error;
      }
      if (settled.outcome !== 'success')
        throw new InvalidRequestError(`The permit transaction was ${settled.outcome}; sign a new permit.`, { param: 'signature' });
      // Refunds created before the allowance was granted carry on now (issue 36, item 13).
      await this.resumeAwaitingAllowance(scope, settings.chainId);
      return this.allowance(scope, settings.chainId);
    },

    async get(scope: MerchantScope, id: string): Promise<Refund> {
      const row = await repo.findRefund(sql, scope, id);
      if (!row) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
      return render(row);
    },

    /** The merchant's metadata (merged; "" removes a key), with `refund.updated` when it changed (none when not). */
    async update(scope: MerchantScope, id: string, input: UpdateRefundBody): Promise<Refund> {
      return commitWithEvents(sql, events, async (tx, record) => {
        const outcome = await updateMetadata(tx, 'refunds', scope, id, input.metadata, async (previous) => {
          const object = render((await repo.findRefund(tx, scope, id))!);
          await record({ ...scope, type: 'refund.updated', data: { object, previousAttributes: { metadata: previous } } });
        });
        if (!outcome) throw new NotFoundError(`No such refund: ${id}.`, { param: 'id' });
        return render((await repo.findRefund(tx, scope, id))!);
      });
    },

    async list(scope: MerchantScope, query: RefundListQuery): Promise<Page<Refund>> {
      const rows = await repo.listRefunds(sql, scope, {
        ...createdRangeOf(query),
        status: query.status,
        metadata: query.metadata,
        ...(query.chainId === undefined ? {} : { chainId: listedChainId(chain, scope.livemode, query.chainId)! }),
        q: query.q,
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, render);
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
