// The x402 facilitator (v2): verify, settle and supported for sellers that use
// the official x402 packages with their secret key. A settle is a relay
// submission of the authorization (the relay's workflow, sender and ledger)
// that pays a payment session created for it (or, to a deposit address, the
// deposit session it is a deposit of: recipient.ts), so the merchant sees it
// like any other payment; x402_payments keys it by (chain, token, payer, nonce), so a
// repeated or concurrent settle of one authorization finds the first one.
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChainConfig } from '../chain/config.js';
import { type Db, isUniqueViolation, type Sql } from '../db/client.js';
import { afterCommit } from '../db/request-transaction.js';
import type { MerchantScope } from '../http/principal.js';
import { newId } from '../ids.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import * as relayRepo from '../relay/repo.js';
import { startRelayWorkflow } from '../relay/starts.js';
import {
  type ExactPayment,
  EXACT_SCHEME,
  X402_VERSION,
  caip2,
  checkExactPayment,
  readExactPayment,
  relayerAddress,
  settlingChains,
} from './exact-evm.js';
import { X402_REASONS, refusalReason } from './reasons.js';
import type { Recipient } from './recipient.js';
import * as repo from './repo.js';
import type { FacilitatorRequest, SettleResponse, SupportedResponse, VerifyResponse } from './schemas.js';

export type X402ServiceDeps = {
  sql: Sql;
  chain: ChainConfig;
  temporal?: Client;
  taskQueue: string;
  /** How long a settle waits for its transaction to be included before answering `settlement_pending`. */
  settleWaitMs?: number;
};

/** A session longer than this is not needed: an authorization that outlives it can no longer be this payment's. */
const MAX_SESSION_SECONDS = 7 * 24 * 3600;

/** The relay Idempotency-Key of a settlement: the authorization's key, so the relay's workflow id is derived from it. */
export function settlementKey(key: repo.AuthorizationKey): string {
  return `x402_${key.chainId}_${key.token}_${key.payer}_${key.nonce}`.toLowerCase();
}

/** The session can be paid until the authorization expires (at most a week: the API's longest session). */
function sessionExpiry(validBefore: string): Date {
  const latest = Date.now() + MAX_SESSION_SECONDS * 1000;
  const before = BigInt(validBefore) * 1000n;
  return new Date(before < BigInt(latest) ? Number(before) : latest);
}

const authorizationKey = (payment: ExactPayment): repo.AuthorizationKey => ({
  chainId: payment.settings.chainId,
  token: payment.token,
  payer: payment.payer,
  nonce: payment.call.nonce,
});

export function createX402Service({ sql, chain, temporal, taskQueue, settleWaitMs = 30_000 }: X402ServiceDeps) {
  const failed = (
    request: FacilitatorRequest,
    errorReason: string,
    errorMessage: string,
    payer?: string,
    transaction = '',
  ): SettleResponse => ({
    success: false,
    errorReason,
    errorMessage,
    ...(payer ? { payer } : {}),
    transaction,
    network: request.paymentRequirements.network,
  });

  async function startWorkflow(row: relayRepo.SubmissionRow): Promise<void> {
    // After the commit of the rows it reads, as the relay's own starts (src/relay/service.ts).
    if (temporal) await afterCommit(sql, async () => void (await startRelayWorkflow(temporal, taskQueue, row)));
  }

  /**
   * The settlement's answer from its relay submission: success once the transfer is included (the
   * session completes at the mode's confirmations), the named failure when it failed, else, after
   * `settleWaitMs`, `settlement_pending` with the transaction when one was sent.
   */
  async function outcome(request: FacilitatorRequest, payment: ExactPayment, submissionId: string): Promise<SettleResponse> {
    const deadline = Date.now() + settleWaitMs;
    let pause = 25;
    for (;;) {
      const row = await relayRepo.findSubmission(sql, submissionId);
      if (!row) throw new Error(`relay submission ${submissionId} of an x402 settlement is missing`);
      const included = row.status === 'confirmed' || (row.status === 'submitted' && row.blockNumber !== null);
      if (included && row.transactionHash) {
        return {
          success: true,
          payer: payment.payer,
          transaction: row.transactionHash,
          network: payment.network,
          amount: payment.call.value,
        };
      }
      if (row.status === 'failed') {
        const failure = { code: row.failureCode ?? 'Failed', reason: row.failureReason ?? 'The settlement failed.' };
        return failed(
          request,
          refusalReason(failure, X402_REASONS.transactionFailed),
          failure.reason,
          payment.payer,
          row.transactionHash ?? '',
        );
      }
      if (Date.now() >= deadline) {
        return failed(
          request,
          X402_REASONS.settlementPending,
          'The settlement is on its way but not yet included; settle the same payment again to read its outcome (it is never sent twice).',
          payment.payer,
          row.transactionHash ?? '',
        );
      }
      await sleep(pause);
      pause = Math.min(pause * 2, 250);
    }
  }

  /** The settlement this authorization already has, answered as the first settle was (or a refusal if it is not this payment's). */
  async function earlierSettlement(
    scope: MerchantScope,
    request: FacilitatorRequest,
    payment: ExactPayment,
  ): Promise<SettleResponse | undefined> {
    const earlier = await repo.findX402Payment(sql, authorizationKey(payment));
    if (!earlier) return undefined;
    const submission = await relayRepo.findSubmission(sql, earlier.relaySubmissionId);
    const same =
      earlier.merchantId === scope.merchantId && earlier.livemode === scope.livemode && submission?.authorizationDigest === payment.digest;
    if (!same || !submission)
      return failed(request, X402_REASONS.nonceUsed, 'This authorization nonce was already settled for another payment.', payment.payer);
    if (submission.status === 'pending' || submission.status === 'submitted') await startWorkflow(submission);
    return outcome(request, payment, submission.id);
  }

  /**
   * The settlement's records in one transaction: the relay submission and the x402 row, and the
   * payment session they pay. To the payout address that is a new session (processing, paid by the
   * submission); to a deposit address it is the deposit session, which the transfer pays as a
   * deposit (the indexer credits it; recipient.ts), so the submission is not linked to it.
   * `concurrent` when another settle of the same authorization committed first; `sessionTaken` when
   * another x402 payment took the deposit session first.
   */
  async function record(
    scope: MerchantScope,
    payment: ExactPayment,
    recipient: Recipient,
  ): Promise<{ submission: relayRepo.SubmissionRow } | { concurrent: true } | { sessionTaken: true }> {
    const { call, settings } = payment;
    try {
      return await sql.begin(async (tx) => {
        const submission = await relayRepo.insertSubmission(tx, {
          id: newId('relaySubmission'),
          ...scope,
          idempotencyKey: settlementKey(authorizationKey(payment)),
          kind: 'payment',
          chainId: settings.chainId,
          authorizationDigest: payment.digest,
          call,
        });
        const sessionId = recipient.kind === 'deposit' ? recipient.session.id : await payoutSession(tx, scope, payment, submission.id);
        await repo.insertX402Payment(tx, {
          ...authorizationKey(payment),
          ...scope,
          paymentSessionId: sessionId,
          relaySubmissionId: submission.id,
          scheme: EXACT_SCHEME,
          network: payment.network,
          resourceUrl: payment.resource.url,
          resourceDescription: payment.resource.description,
          resourceMimeType: payment.resource.mimeType,
        });
        return { submission: { ...submission, paymentSessionId: recipient.kind === 'deposit' ? null : sessionId } };
      });
    } catch (error) {
      // A concurrent settle of the same authorization (or a relay payment of it) committed first.
      if (
        isUniqueViolation(error, 'x402_payments_pkey') ||
        isUniqueViolation(error, 'relay_submissions_key') ||
        isUniqueViolation(error, 'relay_submissions_digest')
      ) {
        return { concurrent: true };
      }
      // Another authorization to the same deposit address committed first: one x402 payment per session.
      if (isUniqueViolation(error, 'x402_payments_payment_session_id_key')) return { sessionTaken: true };
      throw error;
    }
  }

  /** A payment to the payout address: its own session, processing, paid by the submission. */
  async function payoutSession(tx: Db, scope: MerchantScope, payment: ExactPayment, submissionId: string): Promise<string> {
    const { call, settings } = payment;
    const session = await sessionRepo.insertPaymentSession(tx, {
      id: newId('paymentSession'),
      ...scope,
      amount: call.value,
      currency: 'USDC',
      payTo: call.to,
      token: payment.token,
      chainId: settings.chainId,
      expiresAt: sessionExpiry(call.validBefore),
      successUrl: null,
      cancelUrl: null,
      metadata: {},
    });
    await relayRepo.setSubmissionPaymentSession(tx, submissionId, session.id);
    const claimed = await sessionRepo.markProcessing(tx, session.id, {
      relaySubmissionId: submissionId,
      payer: call.from,
      authorizationNonce: call.nonce,
    });
    if (!claimed) throw new Error(`the new payment session ${session.id} of an x402 settlement could not turn processing`);
    return session.id;
  }

  return {
    supported(scope: MerchantScope): SupportedResponse {
      const settlable = settlingChains(chain, scope.livemode).map((settings) => ({
        network: caip2(settings.chainId),
        relayer: relayerAddress(settings)!,
      }));
      // One relayer on every chain is named once for the family, as the x402 spec's examples do; per chain otherwise.
      const oneRelayer = new Set(settlable.map(({ relayer }) => relayer)).size === 1;
      return {
        kinds: settlable.map(({ network }) => ({ x402Version: X402_VERSION, scheme: EXACT_SCHEME, network })),
        extensions: [],
        signers: oneRelayer
          ? { 'eip155:*': [settlable[0]!.relayer] }
          : Object.fromEntries(settlable.map(({ network, relayer }) => [network, [relayer]])),
      };
    },

    async verify(scope: MerchantScope, request: FacilitatorRequest): Promise<VerifyResponse> {
      const read = await readExactPayment(chain, scope, request);
      const verdict = read.valid
        ? await checkExactPayment(read.payment, {
            sql,
            scope,
            requirements: request.paymentRequirements,
            settledHere: async () => (await repo.findX402Payment(sql, authorizationKey(read.payment))) !== undefined,
          })
        : read;
      if (!verdict.valid)
        return {
          isValid: false,
          invalidReason: verdict.reason,
          invalidMessage: verdict.message,
          ...(verdict.payer ? { payer: verdict.payer } : {}),
        };
      return { isValid: true, payer: verdict.payment.payer };
    },

    async settle(scope: MerchantScope, request: FacilitatorRequest): Promise<SettleResponse> {
      const read = await readExactPayment(chain, scope, request);
      if (!read.valid) return failed(request, read.reason, read.message, read.payer);
      const payment = read.payment;
      // A repeated settle answers as the first one did, whatever the chain says of the nonce now.
      const earlier = await earlierSettlement(scope, request, payment);
      if (earlier) return earlier;
      const verdict = await checkExactPayment(payment, { sql, scope, requirements: request.paymentRequirements });
      if (!verdict.valid) return failed(request, verdict.reason, verdict.message, verdict.payer);
      // Recorded and committed on its own, also when the seller sent an Idempotency-Key (its route opens no
      // request transaction: `commitsBeforeResponse`): the worker must see the rows before their workflow
      // starts, and the answer waits for the worker. The authorization's key keeps repeated settles to one
      // settlement, so the request's transaction would add nothing.
      const recorded = await record(scope, payment, verdict.recipient);
      if ('sessionTaken' in recorded) {
        return failed(
          request,
          X402_REASONS.recipientMismatch,
          'payTo is the deposit address of a payment session another x402 payment is already paying.',
          payment.payer,
        );
      }
      if ('concurrent' in recorded) {
        const concurrent = await earlierSettlement(scope, request, payment);
        return (
          concurrent ?? failed(request, X402_REASONS.nonceUsed, 'This authorization was already submitted to the relay.', payment.payer)
        );
      }
      await startWorkflow(recorded.submission);
      return outcome(request, payment, recorded.submission.id);
    },
  };
}

export type X402Service = ReturnType<typeof createX402Service>;
