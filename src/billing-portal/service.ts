// The customer portal (issue 40, item 4): the merchant creates a short-lived session for one customer
// (POST /v1/billing-portal/sessions) and sends them to its link; the portal's routes then act for that
// customer only, through the same services as the merchant's API (cancel, undo, plan change, discount),
// so the events and rules are the merchant's own. docs/decisions.md, "Customer portal".
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Sql } from '../db/client.js';
import { commitWithEvents, type RecordEvent } from '../events/commit.js';
import type { EventDispatcher } from '../events/dispatch.js';
import { findCustomer } from '../customers/repo.js';
import { AuthenticationError, InvalidRequestError, InvalidStateError, NotFoundError, PermissionDeniedError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import { newId } from '../ids.js';
import { findMerchantDisplay } from '../payment-sessions/repo.js';
import { findPromotionCodeByCode } from '../promotion-codes/repo.js';
import type { DiscountService } from '../discounts/service.js';
import type { PlanChangeService } from '../subscription-plan-changes/service.js';
import { findPlan, findPlanById, type PlanRow } from '../subscription-plans/repo.js';
import { renderSubscription } from '../subscriptions/api-shape.js';
import { CANCELLATION_FEEDBACK, findSubscription, type SubscriptionRow } from '../subscriptions/repo.js';
import type { SubscriptionService } from '../subscriptions/service.js';
import { nextCharge, planChangeLink } from './next-charge.js';
import { findLatestWalletChange, cancelWalletChange } from '../subscription-plan-changes/reauthorisation-repo.js';
import { renderWalletChange, startWalletChange } from '../subscription-plan-changes/wallet-change.js';
import * as repo from './repo.js';
import type {
  CreatePortalSessionBody,
  PortalCancelBody,
  PortalConfiguration,
  PortalInvoices,
  PortalPayments,
  PortalSession,
  PortalState,
  PortalSubscription,
  UpdatePortalConfigurationBody,
} from './schemas.js';

/** How long a portal link works: long enough to manage a subscription, short enough that a leaked link soon dies. */
export const PORTAL_SESSION_SECONDS = 60 * 60;
export const PORTAL_PATH = '/billing-portal/session';

const TOKEN_PREFIX = 'bpt_';
export const hashPortalToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The API shape of a session, without its link (which only its creation answers). */
function renderSession(row: repo.PortalSessionRow): PortalSession {
  return {
    id: row.id,
    object: 'billing_portal.session',
    url: null,
    expiresAt: row.expiresAt.toISOString(),
    customerId: row.customerId,
    returnUrl: row.returnUrl,
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A new session of one customer and its token (which only its holder ever has again); records billing_portal.session.created. */
export async function openPortalSession(
  tx: Db,
  record: RecordEvent,
  scope: MerchantScope,
  customerId: string,
  returnUrl: string | null,
): Promise<{ row: repo.PortalSessionRow; token: string }> {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await repo.insertSession(tx, {
    id: newId('billingPortalSession'),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    customerId,
    tokenHash: hashPortalToken(token),
    returnUrl,
    expiresAt: new Date(Date.now() + PORTAL_SESSION_SECONDS * 1000),
  });
  await record({ ...scope, type: 'billing_portal.session.created', data: { object: renderSession(row) } });
  return { row, token };
}

/** The merchant and mode a session belongs to. */
export const scopeOf = (session: repo.PortalSessionRow): MerchantScope => ({ merchantId: session.merchantId, livemode: session.livemode });

const DEFAULTS = {
  cancelMode: 'at_period_end',
  cancellationReasons: [...CANCELLATION_FEEDBACK],
  planIds: [],
  promotionCodes: false,
  walletChanges: true,
} as const;

/** A stranger's subscription is as unknown as one that does not exist. */
const subscriptionMissing = (id: string) => new NotFoundError(`No such subscription: ${id}.`, { param: 'id' });

/** http is only for a merchant's own machine while testing; live links are https. */
function checkReturnUrl(returnUrl: string, livemode: boolean): void {
  const url = new URL(returnUrl);
  if (url.protocol === 'https:') return;
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!livemode && local) return;
  throw new InvalidRequestError('returnUrl must be https (http only for localhost, in test mode).', { param: 'returnUrl' });
}

function renderConfiguration(scope: MerchantScope, row: repo.PortalConfigurationRow | undefined): PortalConfiguration {
  const c = row ?? DEFAULTS;
  return {
    id: row?.id ?? null,
    object: 'billing_portal.configuration',
    cancel: { mode: c.cancelMode, reasons: [...c.cancellationReasons] },
    planSwitching: { planIds: [...c.planIds] },
    promotionCodes: c.promotionCodes,
    walletChanges: c.walletChanges,
    livemode: scope.livemode,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

const renderPlan = (plan: PlanRow) => ({
  id: plan.id,
  name: plan.name,
  amount: plan.amount,
  interval: plan.interval,
  intervalCount: plan.intervalCount,
});

export type BillingPortalServiceDeps = {
  sql: Sql;
  events: EventDispatcher;
  publicBaseUrl: string;
  subscriptions: SubscriptionService;
  planChanges: PlanChangeService;
  discounts: DiscountService;
};

export function createBillingPortalService({
  sql,
  events,
  publicBaseUrl,
  subscriptions,
  planChanges,
  discounts,
}: BillingPortalServiceDeps) {
  const configurationOf = async (scope: MerchantScope) => renderConfiguration(scope, await repo.findConfiguration(sql, scope));

  /** The session's subscription `id`, or not_found when it is not this customer's (of this merchant and mode). */
  const ownSubscription = async (session: repo.PortalSessionRow, id: string): Promise<SubscriptionRow> => {
    const row = await findSubscription(sql, scopeOf(session), id);
    if (!row || row.customerId !== session.customerId) throw subscriptionMissing(id);
    return row;
  };

  const portalSubscription = async (row: SubscriptionRow): Promise<PortalSubscription> => {
    const subscription = renderSubscription(row);
    const [plan, walletChange] = await Promise.all([findPlanById(sql, row.planId), findLatestWalletChange(sql, row.id)]);
    return {
      subscription,
      plan: plan ? renderPlan(plan) : null,
      nextCharge: nextCharge(row),
      planChangeUrl: planChangeLink(subscription.pendingPlanChange),
      walletChange: walletChange ? renderWalletChange(walletChange, row) : null,
    };
  };

  const refresh = async (session: repo.PortalSessionRow, id: string) => portalSubscription(await ownSubscription(session, id));

  return {
    async createSession(scope: MerchantScope, input: CreatePortalSessionBody): Promise<PortalSession> {
      checkReturnUrl(input.returnUrl, scope.livemode);
      const customer = await findCustomer(sql, scope, input.customerId);
      if (!customer) throw new InvalidRequestError(`No such customer: ${input.customerId}.`, { param: 'customerId' });
      const { row, token } = await commitWithEvents(sql, events, (tx, record) =>
        openPortalSession(tx, record, scope, customer.id, input.returnUrl),
      );
      // The token rides in the fragment: browsers never send it to a server, so no log or Referer holds it.
      return { ...renderSession(row), url: `${publicBaseUrl.replace(/\/+$/, '')}${PORTAL_PATH}#${token}` };
    },

    getConfiguration: configurationOf,

    async updateConfiguration(scope: MerchantScope, input: UpdatePortalConfigurationBody): Promise<PortalConfiguration> {
      const current = await configurationOf(scope);
      const planIds = input.planSwitching?.planIds ?? current.planSwitching.planIds;
      for (const [index, planId] of planIds.entries()) {
        const plan = await findPlan(sql, scope, planId);
        if (!plan || plan.archivedAt) {
          throw new InvalidRequestError(`No such plan for this merchant and mode: ${planId}.`, { param: `planSwitching.planIds.${index}` });
        }
      }
      const row = await repo.upsertConfiguration(sql, {
        id: current.id ?? newId('billingPortalConfiguration'),
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        cancelMode: input.cancel?.mode ?? current.cancel.mode,
        cancellationReasons: [...new Set(input.cancel?.reasons ?? current.cancel.reasons)],
        planIds: [...new Set(planIds)],
        promotionCodes: input.promotionCodes ?? current.promotionCodes,
        walletChanges: input.walletChanges ?? current.walletChanges,
      });
      return renderConfiguration(scope, row);
    },

    /** The live session of a portal token; anything else (unknown, expired, malformed) is authentication_error. */
    async authenticate(authorization: string | undefined): Promise<repo.PortalSessionRow> {
      const token = /^Bearer +(bpt_[A-Za-z0-9_-]{20,100}) *$/.exec(authorization ?? '')?.[1];
      const session = token ? await repo.findLiveSession(sql, hashPortalToken(token)) : undefined;
      if (!session) throw new AuthenticationError('This portal link has expired or is not valid: ask the merchant for a new one.');
      return session;
    },

    async state(session: repo.PortalSessionRow): Promise<PortalState> {
      const scope = scopeOf(session);
      const [merchant, customer, configuration] = await Promise.all([
        findMerchantDisplay(sql, scope),
        findCustomer(sql, scope, session.customerId),
        configurationOf(scope),
      ]);
      const plans: PlanRow[] = [];
      for (const planId of configuration.planSwitching.planIds) {
        const plan = await findPlan(sql, scope, planId);
        if (plan && !plan.archivedAt) plans.push(plan);
      }
      return {
        merchantName: merchant?.name ?? 'the merchant',
        returnUrl: session.returnUrl,
        expiresAt: session.expiresAt.toISOString(),
        livemode: session.livemode,
        customer: { id: session.customerId, walletAddress: customer?.walletAddress ?? '', email: customer?.email ?? null },
        configuration,
        plans: plans.map(renderPlan),
      };
    },

    async subscriptions(session: repo.PortalSessionRow): Promise<{ data: PortalSubscription[] }> {
      const ids = await repo.customerSubscriptionIds(sql, scopeOf(session), session.customerId);
      const data: PortalSubscription[] = [];
      for (const id of ids) data.push(await refresh(session, id));
      return { data };
    },

    async payments(session: repo.PortalSessionRow): Promise<PortalPayments> {
      const rows = await repo.customerCharges(sql, scopeOf(session), session.customerId);
      return {
        data: rows.map((r) => ({
          ...r,
          settledAt: r.settledAt?.toISOString() ?? null,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },

    async invoices(session: repo.PortalSessionRow): Promise<PortalInvoices> {
      const scope = scopeOf(session);
      const customer = await findCustomer(sql, scope, session.customerId);
      const rows = await repo.customerInvoices(sql, scope, { id: session.customerId, email: customer?.email ?? null });
      return {
        data: rows.map((r) => ({
          id: r.id,
          number: r.number,
          status: r.status,
          total: r.total,
          createdAt: r.createdAt.toISOString(),
          // The hosted invoice's public PDF (src/invoices/routes.ts); a void one has none to pay.
          pdfUrl: r.status === 'void' ? null : `/checkout/${r.sessionId}/invoice.pdf`,
        })),
      };
    },

    async cancel(session: repo.PortalSessionRow, id: string, input: PortalCancelBody): Promise<PortalSubscription> {
      await ownSubscription(session, id);
      const { cancel } = await configurationOf(scopeOf(session));
      if (cancel.mode === 'off') throw new PermissionDeniedError('This portal does not offer cancelling: contact the merchant.');
      if (input.atPeriodEnd !== (cancel.mode === 'at_period_end')) {
        throw new InvalidRequestError(
          cancel.mode === 'at_period_end' ? 'This portal cancels at the end of the period.' : 'This portal cancels at once.',
          { param: 'atPeriodEnd' },
        );
      }
      if (input.feedback !== undefined && !cancel.reasons.includes(input.feedback)) {
        throw new InvalidRequestError('This reason is not offered.', { param: 'feedback' });
      }
      await subscriptions.cancel(
        scopeOf(session),
        id,
        { atPeriodEnd: input.atPeriodEnd, reason: input.reason, feedback: input.feedback },
        'subscriber',
      );
      return refresh(session, id);
    },

    async uncancel(session: repo.PortalSessionRow, id: string): Promise<PortalSubscription> {
      await ownSubscription(session, id);
      await subscriptions.uncancel(scopeOf(session), id);
      return refresh(session, id);
    },

    async changePlan(session: repo.PortalSessionRow, id: string, planId: string): Promise<PortalSubscription> {
      const row = await ownSubscription(session, id);
      const { planSwitching } = await configurationOf(scopeOf(session));
      if (planSwitching.planIds.length === 0) throw new PermissionDeniedError('This portal does not offer plan changes.');
      // Both ends must be offered: a customer on a plan outside the list keeps it (the merchant's bespoke price).
      if (!planSwitching.planIds.includes(row.planId) || !planSwitching.planIds.includes(planId)) {
        throw new InvalidRequestError('This plan is not offered in the portal for this subscription.', { param: 'planId' });
      }
      await planChanges.change(scopeOf(session), id, { planId, prorationBehavior: 'create_prorations' });
      return refresh(session, id);
    },

    /** The customer names another wallet; it signs on the change's hostedUrl (wallet-change.ts). */
    async startWalletChange(session: repo.PortalSessionRow, id: string, walletAddress: string): Promise<PortalSubscription> {
      const row = await ownSubscription(session, id);
      const scope = scopeOf(session);
      if (!(await configurationOf(scope)).walletChanges)
        throw new PermissionDeniedError('This portal does not move subscriptions to another wallet.');
      await startWalletChange(sql, scope, row, walletAddress, {
        publicBaseUrl,
        otherCustomerOf: (wallet) => repo.findCustomerIdByWallet(sql, scope, wallet),
      });
      return refresh(session, id);
    },

    /** Withdraws the waiting move (an enrolment the new wallet signed meanwhile is cancelled on chain when indexed). */
    async cancelWalletChange(session: repo.PortalSessionRow, id: string): Promise<PortalSubscription> {
      await ownSubscription(session, id);
      const latest = await findLatestWalletChange(sql, id);
      const cancelled = latest ? await sql.begin((tx) => cancelWalletChange(tx, latest.id)) : undefined;
      if (!cancelled) throw new InvalidStateError('There is no move to another wallet waiting on this subscription.');
      return refresh(session, id);
    },

    async applyPromotionCode(session: repo.PortalSessionRow, id: string, code: string): Promise<PortalSubscription> {
      await ownSubscription(session, id);
      const scope = scopeOf(session);
      const { promotionCodes } = await configurationOf(scope);
      if (!promotionCodes) throw new PermissionDeniedError('This portal does not take promotion codes.');
      const promotion = await findPromotionCodeByCode(sql, scope, code);
      if (!promotion) throw new InvalidRequestError('No such promotion code.', { param: 'code' });
      try {
        await discounts.apply(scope, id, { promotionCode: promotion.id });
      } catch (error) {
        // The merchant's operation names its field promotionCode; the customer typed `code`.
        if (error instanceof InvalidRequestError && error.param === 'promotionCode') {
          throw new InvalidRequestError(error.message, { param: 'code' });
        }
        throw error;
      }
      return refresh(session, id);
    },
  };
}

export type BillingPortalService = ReturnType<typeof createBillingPortalService>;
