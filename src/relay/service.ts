// The relay: pre-checks a payer-signed EIP-3009 authorization (or an EIP-2612
// permit plus an enrolment) before anything is sent, records one submission per
// authorization, and starts its relaySubmissionWorkflow.
import type { Client } from '@temporalio/client';
import { type Address, type Hex, getAddress, hashTypedData, isAddressEqual } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { subscriptionManagerAbi } from '../chain/generated/contracts.js';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { acceptsChain } from '../payment-sessions/accepted-chains.js';
import { chainsOf, subscriptionManagerV2Of, type ChainConfig, type ChainSettings } from '../chain/config.js';
import { chargeWindowForPeriod } from '../subscriptions/periods.js';
import { nextBlockTime } from '../chain/chain-time.js';
import { recoverDigestSigner, recoverTypedDataSigner } from '../chain/signer-recovery.js';
import { isValidContractSignature } from '../chain/erc1271.js';
import { publicClientFor, withSafeChainErrors } from '../chain/clients.js';
import { refuseTokenStanding } from './token-door.js';
import { refuseChainNoPlanOffers } from './plan-chain.js';
import { createChainResolver } from '../test-clocks/chain-registry.js';
import { clockChainOfWallet } from '../test-clocks/repo.js';
import { EIP3009_TYPES, ENROLMENT_V2_TYPES, PERMIT_TYPES, readDomain } from '../chain/typed-data.js';
import { isUniqueViolation, type Sql } from '../db/client.js';
import { afterCommit } from '../db/request-transaction.js';
import { IdempotencyError, InvalidRequestError, InvalidStateError, NotFoundError } from '../errors.js';
import * as invoiceRepo from '../invoices/repo.js';
import { findPayoutAddressOn } from '../merchants/repo.js';
import * as sessionRepo from '../payment-sessions/repo.js';
import { amountDue } from '../payment-sessions/refundable.js';
import type { MerchantScope } from '../http/principal.js';
import { newId } from '../ids.js';
import type { TokenService } from '../tokens/service.js';
import type { PaymentCall, RelayCall, SubscriptionCall } from './calls.js';
import { startRelayWorkflow } from './starts.js';
import * as repo from './repo.js';
import type { RelayPaymentBody, RelaySubmission, RelaySubscriptionBody } from './schemas.js';

export function renderSubmission(row: repo.SubmissionRow, settings: ChainSettings | undefined): RelaySubmission {
  return {
    object: 'relay_submission',
    id: row.id,
    idempotencyKey: row.idempotencyKey,
    kind: row.kind,
    livemode: row.livemode,
    chainId: Number(row.chainId),
    status: row.status,
    authorizationDigest: row.authorizationDigest,
    transactionHash: row.transactionHash,
    blockNumber: row.blockNumber,
    confirmations: row.confirmations,
    requiredConfirmations: settings?.confirmations ?? 1,
    failureCode: row.failureCode,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const refuse = (param: string, message: string) => new InvalidRequestError(message, { param });

export type RelayServiceDeps = { sql: Sql; chain: ChainConfig; tokens: TokenService; temporal?: Client; taskQueue: string };

export function createRelayService({ sql, chain, tokens, temporal, taskQueue }: RelayServiceDeps) {
  const chainOf = createChainResolver({ sql, config: chain });
  /** The mode's chain the submission is sent on: the one named (issue 39), else the mode's first. */
  async function settingsFor(scope: MerchantScope, chainId?: number): Promise<ChainSettings> {
    // A test clock's own chain is one more chain of test mode (issue 39): its sessions are paid there.
    const settings = await chainOf(scope.livemode, chainId);
    if (!settings.relayerKey) {
      throw new InvalidRequestError(`The relay is not configured for ${settings.mode} mode on this deployment.`, { param: 'livemode' });
    }
    return settings;
  }

  /**
   * Where an enrolment is sent: a subscriber on a test clock with a chain of its own (TEST_CLOCK_CHAINS=fork)
   * enrols on the clock's chain, whose time the clock moves and where its charges go (issue 39); else the mode's first.
   */
  async function enrolmentSettings(scope: MerchantScope, subscriber: Address): Promise<ChainSettings> {
    const clockChainId = scope.livemode ? undefined : await clockChainOfWallet(sql, scope.merchantId, subscriber);
    return settingsFor(scope, clockChainId);
  }

  function requireKey(key: string | undefined): string {
    if (!key)
      throw refuse(
        'Idempotency-Key',
        'The relay requires an Idempotency-Key header: it names the submission (GET /v1/relay/submissions/{idempotencyKey}).',
      );
    return key;
  }

  /** The merchant's payout address on the chain (its own there, else the account's): the relay pays only to it. */
  async function payoutAddress(scope: MerchantScope, chainId: number, param: string): Promise<Address> {
    const payout = await findPayoutAddressOn(sql, scope, chainId);
    if (!payout) throw refuse(param, 'The merchant has no payout address configured; the relay only pays to it.');
    return getAddress(payout);
  }

  async function startWorkflow(row: repo.SubmissionRow): Promise<void> {
    // After the request's commit: the workflow must find its submission (a start lost there is made by the stale-submission sweep).
    if (temporal) await afterCommit(sql, async () => void (await startRelayWorkflow(temporal, taskQueue, row)));
  }

  /**
   * A submission already recorded under this key (a retry after a 5xx, whose response was not
   * remembered): same authorization -> make sure its workflow runs and return it; another -> 409.
   */
  async function replayOf(existing: repo.SubmissionRow, digest: string, settings: ChainSettings): Promise<RelaySubmission> {
    if (existing.authorizationDigest !== digest)
      throw new IdempotencyError('This Idempotency-Key was already used for another relay submission.');
    await startWorkflow(existing);
    return renderSubmission(existing, settingsOfRow(existing) ?? settings);
  }

  /** The settings of the chain a submission went to (its confirmations), not of the mode's first chain. */
  function settingsOfRow(row: repo.SubmissionRow): ChainSettings | undefined {
    return chainsOf(chain, row.livemode).find((settings) => settings.chainId === Number(row.chainId));
  }

  const alreadySubmitted = () =>
    refuse(
      'authorization',
      'This authorization was already submitted to the relay (under another Idempotency-Key); it is never submitted twice. Read the first submission instead.',
    );

  /** Before any check: the key's earlier submission (a replay), or a refusal when the authorization was seen under another key. */
  async function earlierSubmission(
    scope: MerchantScope,
    key: string,
    digest: string,
    settings: ChainSettings,
  ): Promise<RelaySubmission | undefined> {
    const { byKey, byDigest } = await repo.findSubmissionsByKeyOrDigest(sql, scope, key, digest);
    if (byKey) return replayOf(byKey, digest, settings);
    if (byDigest) throw alreadySubmitted();
    return undefined;
  }

  async function record(
    scope: MerchantScope,
    key: string,
    settings: ChainSettings,
    kind: 'payment' | 'subscription',
    digest: string,
    call: RelayCall,
    paymentSessionId?: string,
  ): Promise<RelaySubmission> {
    let row: repo.SubmissionRow;
    try {
      const submission = {
        id: newId('relaySubmission'),
        ...scope,
        idempotencyKey: key,
        kind,
        chainId: settings.chainId,
        authorizationDigest: digest,
        call,
      };
      const payment = call.kind === 'payment' ? call : undefined;
      const sessionId = payment ? paymentSessionId : undefined;
      row =
        !payment || !sessionId
          ? await repo.insertSubmission(sql, submission)
          : await sql.begin(async (tx) => {
              const row = await repo.insertSubmission(tx, submission);
              // The session turns processing in the submission's transaction: one payment per session.
              await repo.setSubmissionPaymentSession(tx, row.id, sessionId);
              const claimed = await sessionRepo.markProcessing(tx, sessionId, {
                relaySubmissionId: row.id,
                payer: payment.from,
                authorizationNonce: payment.nonce,
                amountDue: payment.value,
              });
              if (!claimed) {
                throw new InvalidStateError(
                  'The payment session is no longer open (paid, processing, expired or cancelled), or a transfer to its deposit address changed the amount due.',
                  {
                    param: 'paymentSessionId',
                  },
                );
              }
              return row;
            });
    } catch (error) {
      // A concurrent request with the same key or authorization committed first.
      if (isUniqueViolation(error, 'relay_submissions_key') || isUniqueViolation(error, 'relay_submissions_digest')) {
        const earlier = await earlierSubmission(scope, key, digest, settings);
        if (earlier) return earlier;
      }
      if (isUniqueViolation(error, 'relay_submissions_one_per_session')) {
        throw new InvalidStateError('A payment for this payment session is already being relayed.', { param: 'paymentSessionId' });
      }
      throw error;
    }
    await startWorkflow(row);
    return renderSubmission(row, settings);
  }

  return {
    async submitPayment(scope: MerchantScope, idempotencyKey: string | undefined, body: RelayPaymentBody): Promise<RelaySubmission> {
      const key = requireKey(idempotencyKey);
      const settings = await settingsFor(scope, body.chainId);
      const client = publicClientFor(settings);
      const token = getAddress(body.token ?? settings.token);
      if (!isAddressEqual(token, settings.token))
        throw refuse('token', `The relay only submits authorizations of ${settings.token} in this mode.`);
      const info = await tokens.describe(settings, token);
      if (!info.supports.eip3009 || !info.domain) throw refuse('token', 'The token does not support EIP-3009 authorizations.');
      const a = body.authorization;
      const message = {
        from: getAddress(a.from),
        to: getAddress(a.to),
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      };
      const domain = { ...info.domain, chainId: info.domain.chainId, verifyingContract: info.domain.verifyingContract as Address };
      const typed = { domain, types: EIP3009_TYPES, primaryType: 'TransferWithAuthorization' as const, message };
      const digest = hashTypedData(typed);

      const replay = await earlierSubmission(scope, key, digest, settings);
      if (replay) return replay;

      // Pre-checks: nothing is sent unless all pass.
      // An EOA's signature recovers the payer; a contract wallet's is accepted by the wallet (ERC-1271), as USDC checks it.
      const signer = recoverDigestSigner(digest, body.signature as Hex);
      if (
        !(signer && isAddressEqual(signer, message.from)) &&
        !(await withSafeChainErrors(() => isValidContractSignature(client, message.from, digest, body.signature as Hex)))
      ) {
        throw refuse(
          'signature',
          'The signature does not recover authorization.from, and authorization.from is not a contract wallet that accepts it (ERC-1271): it was not signed by the payer over this exact message and token domain.',
        );
      }
      const session = body.paymentSessionId ? await sessionRepo.findPaymentSession(sql, scope, body.paymentSessionId) : undefined;
      if (body.paymentSessionId) {
        if (!session) throw new NotFoundError(`No such payment session: ${body.paymentSessionId}.`, { param: 'paymentSessionId' });
        if (session.status !== 'open' || session.expiresAt.getTime() <= Date.now()) {
          const state = session.status === 'open' ? 'expired' : session.status;
          throw new InvalidStateError(`The payment session is ${state}; it cannot be paid.`, { param: 'paymentSessionId' });
        }
        // An invoice is payable once sent (spec: sent -> paid); its session exists from creation.
        const invoice = session.invoiceId ? await invoiceRepo.findInvoice(sql, scope, session.invoiceId) : undefined;
        if (invoice?.status === 'draft') {
          throw new InvalidStateError(`Invoice ${invoice.id} is a draft: it can be paid once it has been sent.`, {
            param: 'paymentSessionId',
          });
        }
        if (!acceptsChain(sessionRepo.acceptedChainsOf(session), settings.chainId)) {
          const ids = sessionRepo.acceptedChainsOf(session).map((c) => c.chainId);
          throw refuse('chainId', `The payment session is not paid on chain ${settings.chainId}; it accepts ${ids.join(', ')}.`);
        }
        const payTo = getAddress(sessionRepo.payToOn(session, settings.chainId));
        if (!isAddressEqual(payTo, message.to))
          throw refuse('authorization.to', `The payment session must be paid to its payTo on chain ${settings.chainId}, ${payTo}.`);
        // What remains due: a partial transfer to the deposit address already paid part of the amount.
        const due = amountDue(session);
        if (due !== message.value) {
          const byTransfer =
            session.amountReceived !== '0' ? ` (${session.amountReceived} of ${session.amount} was received by transfer)` : '';
          throw refuse(
            'authorization.value',
            `The payment session's amount due is ${due}${byTransfer}; the authorization must pay exactly that.`,
          );
        }
      }
      const [now, used, balance, payout] = await Promise.all([
        nextBlockTime(client),
        client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'authorizationState', args: [message.from, message.nonce] }),
        client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'balanceOf', args: [message.from] }),
        session
          ? Promise.resolve(getAddress(sessionRepo.payToOn(session, settings.chainId)))
          : payoutAddress(scope, settings.chainId, 'authorization.to'),
      ]);
      if (message.validAfter >= now)
        throw refuse(
          'authorization.validAfter',
          `The authorization is not valid yet: validAfter ${message.validAfter} is not before the chain time ${now}.`,
        );
      if (message.validBefore <= now)
        throw refuse(
          'authorization.validBefore',
          `The authorization has expired: validBefore ${message.validBefore} is not after the chain time ${now}.`,
        );
      if (used) throw refuse('authorization.nonce', 'This authorization nonce was already used or cancelled on-chain.');
      if (balance < message.value)
        throw refuse('authorization.value', `The payer's balance (${balance}) does not cover the authorized value (${message.value}).`);
      if (!isAddressEqual(payout, message.to))
        throw refuse(
          'authorization.to',
          'The recipient is not an address this merchant may receive at (its payout address, or the payTo of the payment session named).',
        );
      await refuseTokenStanding(
        client,
        token,
        { address: message.from, param: 'authorization.from' },
        { address: message.to, param: 'authorization.to' },
      );

      const call: PaymentCall = {
        kind: 'payment',
        token,
        from: message.from,
        to: message.to,
        value: a.value,
        validAfter: a.validAfter,
        validBefore: a.validBefore,
        nonce: message.nonce,
        signature: body.signature as Hex,
      };
      return record(scope, key, settings, 'payment', digest, call, session?.id);
    },

    async submitSubscription(
      scope: MerchantScope,
      idempotencyKey: string | undefined,
      body: RelaySubscriptionBody,
    ): Promise<RelaySubmission> {
      const key = requireKey(idempotencyKey);
      const subscriber = getAddress(body.subscriber);
      // The chain named (the subscription lives there; its manager's and token's domains check both
      // signatures); none named: the subscriber's test clock's own chain, else the mode's first.
      const settings = body.chainId !== undefined ? await settingsFor(scope, body.chainId) : await enrolmentSettings(scope, subscriber);
      const client = publicClientFor(settings);
      // New enrolments go to SubscriptionManagerV2 (charge windows); v1 keeps charging what enrolled on it.
      const manager = subscriptionManagerV2Of(settings);
      const token = getAddress(body.terms.token);
      if (!isAddressEqual(token, settings.token)) throw refuse('terms.token', `Subscriptions are paid in ${settings.token} in this mode.`);
      const operator = settings.operator ?? (settings.operatorKey ? privateKeyToAccount(settings.operatorKey).address : undefined);
      if (!operator)
        throw new InvalidRequestError(`No subscription operator is configured for ${settings.mode} mode.`, { param: 'livemode' });
      const termsOperator = getAddress(body.terms.operator ?? operator);
      if (!isAddressEqual(termsOperator, operator))
        throw refuse('terms.operator', `terms.operator must be the service's operator ${operator}.`);
      const terms = {
        token,
        merchant: getAddress(body.terms.merchant),
        operator: termsOperator,
        amount: BigInt(body.terms.amount),
        period: BigInt(body.terms.period),
        periods: body.terms.periods,
        trialEnd: BigInt(body.terms.trialEnd),
        chargeWindow: BigInt(body.terms.chargeWindow),
      };
      // An enrolment with another window is never recorded (the indexer's charge_window_mismatch): refuse
      // it here, before the subscriber's permit and signature are spent on a subscription nobody charges.
      const window = chargeWindowForPeriod(Number(terms.period));
      if (window !== null && terms.chargeWindow !== BigInt(window))
        throw refuse(
          'terms.chargeWindow',
          `terms.chargeWindow must be ${window} for a period of ${terms.period} s (the period plus the calendar drift, to the hour).`,
        );
      const enrolment = { nonce: body.enrolment.nonce as Hex, deadline: BigInt(body.enrolment.deadline) };
      const managerDomain = await readDomain(client, manager);
      const typed = {
        domain: managerDomain,
        types: ENROLMENT_V2_TYPES,
        primaryType: 'Enrolment' as const,
        message: { subscriber, ...terms, ...enrolment },
      };
      const digest = hashTypedData(typed);

      const replay = await earlierSubmission(scope, key, digest, settings);
      if (replay) return replay;

      await refuseChainNoPlanOffers(sql, scope, terms, settings.chainId, body.chainId !== undefined);
      const enrolmentSigner = recoverDigestSigner(digest, body.enrolment.signature as Hex);
      if (!enrolmentSigner || !isAddressEqual(enrolmentSigner, subscriber)) {
        throw refuse(
          'enrolment.signature',
          'The enrolment signature does not recover the subscriber: it was not signed over these exact terms.',
        );
      }
      const info = await tokens.describe(settings, token);
      if (!info.supports.eip2612 || !info.domain) throw refuse('terms.token', 'The token does not support EIP-2612 permits.');
      const [permitNonce, enrolmentUsed, now] = await Promise.all([
        client.readContract({ address: token, abi: fiatTokenAbi, functionName: 'nonces', args: [subscriber] }),
        client.readContract({
          address: manager,
          abi: subscriptionManagerAbi,
          functionName: 'enrolmentNonceUsed',
          args: [subscriber, enrolment.nonce],
        }),
        nextBlockTime(client),
      ]);
      const permit = { value: BigInt(body.permit.value), deadline: BigInt(body.permit.deadline) };
      const permitSigner = recoverTypedDataSigner(
        {
          domain: { ...info.domain, verifyingContract: info.domain.verifyingContract as Address },
          types: PERMIT_TYPES,
          primaryType: 'Permit',
          message: { owner: subscriber, spender: manager, value: permit.value, nonce: permitNonce, deadline: permit.deadline },
        },
        body.permit.signature as Hex,
      );
      if (!permitSigner || !isAddressEqual(permitSigner, subscriber)) {
        throw refuse(
          'permit.signature',
          `The permit signature does not recover the subscriber for spender ${manager} at the current permit nonce ${permitNonce}.`,
        );
      }
      if (permit.deadline < now)
        throw refuse('permit.deadline', `The permit has expired: deadline ${permit.deadline} is before the chain time ${now}.`);
      if (enrolment.deadline < now)
        throw refuse('enrolment.deadline', `The enrolment has expired: deadline ${enrolment.deadline} is before the chain time ${now}.`);
      if (enrolmentUsed) throw refuse('enrolment.nonce', 'This enrolment nonce was already used or cancelled on-chain.');
      if (permit.value < terms.amount) throw refuse('permit.value', 'The permit allowance does not cover one period of the terms.');
      const payout = await payoutAddress(scope, settings.chainId, 'terms.merchant');
      if (!isAddressEqual(payout, terms.merchant))
        throw refuse('terms.merchant', `terms.merchant is not this merchant's payout address on chain ${settings.chainId}.`);
      // USDC 2.2 checks no blacklist on permit: without this a blacklisted wallet enrols into a subscription never chargeable.
      await refuseTokenStanding(
        client,
        token,
        { address: subscriber, param: 'subscriber' },
        { address: terms.merchant, param: 'terms.merchant' },
      );

      const call: SubscriptionCall = {
        kind: 'subscription',
        manager,
        subscriber,
        terms: { ...body.terms, token, merchant: terms.merchant, operator: termsOperator },
        permit: { value: body.permit.value, deadline: body.permit.deadline, signature: body.permit.signature as Hex },
        enrolment: { nonce: enrolment.nonce, deadline: body.enrolment.deadline, signature: body.enrolment.signature as Hex },
      };
      return record(scope, key, settings, 'subscription', digest, call);
    },

    async get(scope: MerchantScope, idempotencyKey: string): Promise<RelaySubmission> {
      const row = await repo.findSubmissionByKey(sql, scope, idempotencyKey);
      if (!row) throw new NotFoundError(`No relay submission with Idempotency-Key ${idempotencyKey}.`, { param: 'idempotencyKey' });
      return renderSubmission(row, settingsOfRow(row) ?? (scope.livemode ? chain.live : chain.test));
    },
  };
}

export type RelayService = ReturnType<typeof createRelayService>;
