// Payment sessions: one-shot payments of a fixed amount to the merchant's payout
// address, paid through the relay (POST /v1/relay/payments with paymentSessionId).
// One paymentSessionWorkflow per session (workflow id = session id) owns expiry,
// completion and cancellation.
import { createdRangeOf } from '../http/list-filters.js';
import type { Client } from '@temporalio/client';
import { getAddress } from 'viem';
import { chainFor, chainsOf, depositFactoryOf, listedChainId, type ChainConfig } from '../chain/config.js';
import { CURRENT_DEPOSIT_FACTORY_VERSION, depositAddressOf } from '../chain/deposits/deposit-address.js';
import type { Db, Sql } from '../db/client.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { decodeCursor, toPage, type Page } from '../http/pagination.js';
import { newId } from '../ids.js';
import { createWorkflowStarter, queueWorkflowStart, type QueuedWorkflowStart } from '../temporal/start-outbox.js';
import { checkoutChainOf, networkName, renderDeposit, renderPaymentSession, successUrlFor } from './api-shape.js';
import { paymentSessionWorkflowStart } from './starts.js';
import { resolveAcceptedChains } from './accepted-chains.js';
import { objectClock } from '../test-clocks/object-clock.js';
import * as repo from './repo.js';
import * as merchantRepo from '../merchants/repo.js';
import * as transactionsRepo from './transactions-repo.js';
import { renderSessionTransactions, type Finality } from './transactions.js';
import type {
  CheckoutSession,
  CreatePaymentSessionBody,
  PaymentSession,
  PaymentSessionListQuery,
  PaymentSessionTransaction,
} from './schemas.js';

/**
 * Creates a session inside the caller's transaction (invoices create their backing session in
 * theirs). Refused with invalid_request when the merchant has no payout address.
 */
export async function insertSessionInTx(
  tx: Db,
  chain: ChainConfig,
  scope: MerchantScope,
  input: {
    amount: string;
    currency: string;
    expiresAt: Date;
    successUrl?: string | null;
    cancelUrl?: string | null;
    metadata?: Record<string, string>;
    createdByApiKeyId?: string | null;
    /** The storefront product bought and its name at that moment (src/storefront). */
    productId?: string | null;
    productName?: string | null;
    /** The test clock its expiry follows (issue #30). */
    testClockId?: string | null;
    /** The chains the customer may pay on (default: the account's setting, else every chain of the mode). */
    acceptedChainIds?: number[];
    /** The chain of the test clock it is created on, when the clock has one of its own (TEST_CLOCK_CHAINS=fork). */
    clockChainId?: number | null;
  },
): Promise<repo.PaymentSessionRow> {
  const modeFirst = chainFor(chain, scope.livemode);
  const merchant = await repo.findMerchantDisplay(tx, scope);
  // On a clock with a chain of its own the session is paid there only: the chain whose time the clock moves
  // (issue 39). A fork has the test chain's token and contracts at the same addresses.
  if (input.clockChainId && input.acceptedChainIds)
    throw new InvalidRequestError("A payment session on a test clock with a chain of its own is paid on the clock's chain only.", {
      param: 'acceptedChainIds',
    });
  const resolved = input.clockChainId
    ? [{ chainId: input.clockChainId, token: modeFirst.token }]
    : resolveAcceptedChains(chain, scope.livemode, input.acceptedChainIds, merchant?.acceptedChainIds);
  // The first accepted chain is the session's chain: where its token, payTo and payment URI point by default.
  const settingsOf = (chainId: number) => (input.clockChainId ? { ...modeFirst, chainId } : chainFor(chain, scope.livemode, chainId));
  const settings = settingsOf(resolved[0]!.chainId);
  if (!merchant?.payoutAddress) {
    throw new InvalidRequestError(
      'The merchant has no payout address: complete business onboarding (payout address) before creating payment sessions or invoices.',
      { param: 'payTo' },
    );
  }
  const id = newId('paymentSession');
  // Each chain pays the merchant's payout there (its own, else the account's), stored like the token: a later
  // change of payout does not change what a session's addresses sweep to. The forwarder's salt binds the
  // payout, so the deposit address is the same on the chains paying the same payout, and differs on the others.
  const chainPayouts = await merchantRepo.findChainPayouts(tx, scope.merchantId, scope.livemode);
  const acceptedChains = resolved.map((accepted) => {
    const payTo = getAddress(chainPayouts.find((own) => own.chainId === accepted.chainId)?.payoutAddress ?? merchant.payoutAddress!);
    const factory = depositFactoryOf(settingsOf(accepted.chainId), CURRENT_DEPOSIT_FACTORY_VERSION);
    return { ...accepted, payTo, depositAddress: depositAddressOf(factory, id, payTo, CURRENT_DEPOSIT_FACTORY_VERSION) };
  });
  return repo.insertPaymentSession(tx, {
    id,
    ...scope,
    amount: input.amount,
    currency: input.currency,
    payTo: acceptedChains[0]!.payTo,
    token: settings.token,
    chainId: settings.chainId,
    expiresAt: input.expiresAt,
    successUrl: input.successUrl ?? null,
    cancelUrl: input.cancelUrl ?? null,
    metadata: input.metadata ?? {},
    createdByApiKeyId: input.createdByApiKeyId ?? null,
    productId: input.productId ?? null,
    productName: input.productName ?? null,
    depositAddress: acceptedChains[0]!.depositAddress,
    depositFactoryVersion: CURRENT_DEPOSIT_FACTORY_VERSION,
    testClockId: input.testClockId ?? null,
    acceptedChains,
  });
}

export type PaymentSessionServiceDeps = {
  sql: Sql;
  chain: ChainConfig;
  publicBaseUrl: string;
  temporal?: Client;
  taskQueue: string;
  /** A workflow start that failed after commit (the outbox sweep retries it). */
  onStartError?: (error: unknown, start: QueuedWorkflowStart) => void;
};

export function createPaymentSessionService({ sql, chain, publicBaseUrl, temporal, taskQueue, onStartError }: PaymentSessionServiceDeps) {
  const starter = createWorkflowStarter(temporal, sql, onStartError ?? (() => {}));
  return {
    /**
     * The session and the start of its workflow commit together; the start is tried after commit
     * and, when Temporal is unreachable, left to the outbox sweep: the answer is the committed session.
     */
    async create(
      scope: MerchantScope,
      input: CreatePaymentSessionBody,
      createdByApiKeyId?: string,
      origin: { productId?: string; productName?: string } = {},
    ): Promise<PaymentSession> {
      const { row, start } = await sql.begin(async (tx) => {
        // On a test clock the session expires on the clock's time (its business time).
        const clock = await objectClock(tx, scope, input.testClock);
        const expiresAt = new Date(clock.nowMs + input.expiresInSeconds * 1000);
        const row = await insertSessionInTx(tx, chain, scope, {
          ...input,
          expiresAt,
          createdByApiKeyId,
          ...origin,
          testClockId: clock.testClockId,
          clockChainId: clock.chainId,
        });
        return { row, start: await queueWorkflowStart(tx, paymentSessionWorkflowStart(taskQueue, row)) };
      });
      await starter.startAfterCommit([start]);
      return renderPaymentSession(row, publicBaseUrl);
    },

    /** `createdByKeyId` (a publishable key's reads): only a session that key created is found. */
    async get(scope: MerchantScope, id: string, visibility: { createdByKeyId?: string } = {}): Promise<PaymentSession> {
      const row = await repo.findPaymentSession(sql, scope, id);
      const visible = row && (visibility.createdByKeyId === undefined || row.createdByApiKeyId === visibility.createdByKeyId);
      if (!visible) throw new NotFoundError(`No such payment session: ${id}.`, { param: 'id' });
      return renderPaymentSession(row, publicBaseUrl);
    },

    async list(scope: MerchantScope, query: PaymentSessionListQuery): Promise<Page<PaymentSession>> {
      const rows = await repo.listPaymentSessions(sql, scope, {
        ...createdRangeOf(query),
        status: query.status,
        q: query.q,
        customerId: query.customerId,
        metadata: query.metadata,
        ...(query.chainId === undefined ? {} : { chainId: listedChainId(chain, scope.livemode, query.chainId)! }),
        before: decodeCursor(query.cursor),
        limit: query.limit,
      });
      return toPage(rows, query.limit, (row) => renderPaymentSession(row, publicBaseUrl));
    },

    /** Every transaction of the session (relayed payments, deposits and their sweeps, refunds), oldest first. */
    async listTransactions(scope: MerchantScope, id: string): Promise<{ data: PaymentSessionTransaction[] }> {
      const row = await repo.findPaymentSession(sql, scope, id);
      if (!row) throw new NotFoundError(`No such payment session: ${id}.`, { param: 'id' });
      const [relay, deposits, refunds] = await Promise.all([
        transactionsRepo.relaySubmissionsOf(sql, row),
        transactionsRepo.depositsOf(sql, row.id),
        transactionsRepo.refundsOf(sql, row.id),
      ]);
      // Each chain its own finality: its confirmations and its indexer's checkpoint.
      const chainIds = [...new Set([row.chainId, ...[...relay, ...deposits, ...refunds].map((t) => t.chainId)])];
      const finality = new Map<string, Finality>();
      for (const chainId of chainIds) {
        const settings = chainsOf(chain, scope.livemode).find((c) => c.chainId === Number(chainId));
        const safeBlock = await transactionsRepo.indexedSafeBlock(sql, chainId, row.livemode);
        finality.set(chainId, { required: settings?.confirmations ?? 1, safeBlock });
      }
      return { data: renderSessionTransactions({ relay, deposits, refunds }, (chainId) => finality.get(chainId)!) };
    },

    async getForCheckout(id: string): Promise<CheckoutSession> {
      const row = await repo.findPaymentSessionById(sql, id);
      if (!row) throw new NotFoundError(`No such payment session: ${id}.`, { param: 'id' });
      const [merchant, context] = await Promise.all([repo.findMerchantDisplay(sql, row), repo.findCheckoutContext(sql, row)]);
      return {
        id: row.id,
        object: 'checkout_session',
        amount: row.amount,
        currency: row.currency,
        token: row.token,
        chainId: Number(row.chainId),
        acceptedChainIds: repo.acceptedChainsOf(row).map((c) => c.chainId),
        chains: repo.acceptedChainsOf(row).map((accepted) => checkoutChainOf(accepted, repo.payToOn(row, accepted.chainId))),
        payTo: row.payTo,
        status: row.status,
        expiresAt: row.expiresAt.toISOString(),
        merchantName: merchant?.name ?? '',
        successUrl: successUrlFor(row.successUrl, row.id),
        cancelUrl: row.cancelUrl,
        livemode: row.livemode,
        network: networkName(Number(row.chainId)),
        deposit: renderDeposit(row),
        storeName: context.storeName,
        logoUrl: context.logoUrl,
        supportEmail: context.supportEmail,
        productName: row.productName,
        invoice: context.invoiceNumber ? { number: context.invoiceNumber, lineItems: context.invoiceLineItems ?? [] } : null,
        lastPaymentError: row.lastPaymentError,
      };
    },
  };
}

export type PaymentSessionService = ReturnType<typeof createPaymentSessionService>;
