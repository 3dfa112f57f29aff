// SQL of the customer portal: its sessions (by token hash) and the configuration of a merchant and mode.
import type { Db } from '../db/client.js';
import type { MerchantScope } from '../http/principal.js';
import type { CancellationFeedback } from '../subscriptions/repo.js';

export type PortalSessionRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  customerId: string;
  /** Null for a session the customer opened by signing in with their wallet. */
  returnUrl: string | null;
  expiresAt: Date;
  createdAt: Date;
};

export type CancelMode = 'off' | 'now' | 'at_period_end';

export type PortalConfigurationRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  cancelMode: CancelMode;
  cancellationReasons: CancellationFeedback[];
  planIds: string[];
  promotionCodes: boolean;
  walletChanges: boolean;
  updatedAt: Date;
};

const sessionColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, customer_id as "customerId", return_url as "returnUrl",
     expires_at as "expiresAt", created_at as "createdAt"`;

const configurationColumns = (db: Db) =>
  db`id, merchant_id as "merchantId", livemode, cancel_mode as "cancelMode", cancellation_reasons as "cancellationReasons",
     plan_ids as "planIds", promotion_codes as "promotionCodes", wallet_changes as "walletChanges",
     updated_at as "updatedAt"`;

export async function insertSession(
  db: Db,
  session: Omit<PortalSessionRow, 'createdAt'> & { tokenHash: string },
): Promise<PortalSessionRow> {
  const [row] = await db<PortalSessionRow[]>`
    insert into billing_portal_sessions (id, merchant_id, livemode, customer_id, token_hash, return_url, expires_at)
    values (${session.id}, ${session.merchantId}, ${session.livemode}, ${session.customerId}, ${session.tokenHash},
            ${session.returnUrl}, ${session.expiresAt})
    returning ${sessionColumns(db)}`;
  return row!;
}

/** The session whose token hashes to `tokenHash`, if it has not expired. */
export async function findLiveSession(db: Db, tokenHash: string): Promise<PortalSessionRow | undefined> {
  const [row] = await db<PortalSessionRow[]>`
    select ${sessionColumns(db)} from billing_portal_sessions where token_hash = ${tokenHash} and expires_at > now()`;
  return row;
}

export async function findConfiguration(db: Db, scope: MerchantScope): Promise<PortalConfigurationRow | undefined> {
  const [row] = await db<PortalConfigurationRow[]>`
    select ${configurationColumns(db)} from billing_portal_configurations
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode}`;
  return row;
}

export async function upsertConfiguration(db: Db, config: Omit<PortalConfigurationRow, 'updatedAt'>): Promise<PortalConfigurationRow> {
  const [row] = await db<PortalConfigurationRow[]>`
    insert into billing_portal_configurations
      (id, merchant_id, livemode, cancel_mode, cancellation_reasons, plan_ids, promotion_codes, wallet_changes)
    values (${config.id}, ${config.merchantId}, ${config.livemode}, ${config.cancelMode}, ${config.cancellationReasons},
            ${config.planIds}, ${config.promotionCodes}, ${config.walletChanges})
    on conflict (merchant_id, livemode) do update set
      cancel_mode = excluded.cancel_mode, cancellation_reasons = excluded.cancellation_reasons,
      plan_ids = excluded.plan_ids, promotion_codes = excluded.promotion_codes,
      wallet_changes = excluded.wallet_changes, updated_at = now()
    returning ${configurationColumns(db)}`;
  return row!;
}

/** The ids of the customer's subscriptions, newest first (a customer is one wallet of one merchant and mode). */
export async function customerSubscriptionIds(db: Db, scope: MerchantScope, customerId: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from subscriptions
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and customer_id = ${customerId}
    order by created_at desc, id desc limit 100`;
  return rows.map((r) => r.id);
}

export type PortalChargeRow = {
  id: string;
  subscriptionId: string;
  periodIndex: number;
  amount: string;
  status: string;
  txHash: string | null;
  settledAt: Date | null;
  createdAt: Date;
};

/** The charges of the customer's subscriptions, newest first. */
export async function customerCharges(db: Db, scope: MerchantScope, customerId: string): Promise<PortalChargeRow[]> {
  return db<PortalChargeRow[]>`
    select c.id, c.subscription_id as "subscriptionId", c.period_index as "periodIndex", c.amount::text as amount, c.status,
           c.tx_hash as "txHash", c.settled_at as "settledAt", c.created_at as "createdAt"
    from subscription_charges c join subscriptions s on s.id = c.subscription_id
    where s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode} and s.customer_id = ${customerId}
    order by c.id desc limit 100`;
}

export type PortalInvoiceRow = { id: string; number: string; status: string; total: string; sessionId: string; createdAt: Date };

/** Invoices addressed to the customer's email (invoices name a customer by email, not by id); none without one. */
/**
 * The customer's invoices: those created for them (`customer_id`), and those created without a customer that were
 * sent to their email (invoices before customer ids, or a merchant that names only the email).
 */
export async function customerInvoices(
  db: Db,
  scope: MerchantScope,
  customer: { id: string; email: string | null },
): Promise<PortalInvoiceRow[]> {
  return db<PortalInvoiceRow[]>`
    select id, number, status, total::text as total, session_id as "sessionId", created_at as "createdAt" from invoices
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and status <> 'draft'
      and (customer_id = ${customer.id}
           ${customer.email ? db`or (customer_id is null and lower(customer_email) = ${customer.email.toLowerCase()})` : db``})
    order by id desc limit 100`;
}

export async function findConfigurationById(db: Db, id: string): Promise<PortalConfigurationRow | undefined> {
  const [row] = await db<PortalConfigurationRow[]>`
    select ${configurationColumns(db)} from billing_portal_configurations where id = ${id}`;
  return row;
}

export async function insertSignInNonce(db: Db, nonce: { nonce: string; configurationId: string; expiresAt: Date }): Promise<void> {
  await db`
    insert into billing_portal_sign_in_nonces (nonce, configuration_id, expires_at)
    values (${nonce.nonce}, ${nonce.configurationId}, ${nonce.expiresAt})`;
}

/** Uses up a nonce issued for `configurationId` and not expired: true once, false ever after (or for any other). */
export async function consumeSignInNonce(db: Db, nonce: string, configurationId: string): Promise<boolean> {
  const rows = await db`
    update billing_portal_sign_in_nonces set used_at = now()
    where nonce = ${nonce} and configuration_id = ${configurationId} and used_at is null and expires_at > now()
    returning nonce`;
  return rows.length === 1;
}

/** The customer of a wallet at a merchant in a mode (one per wallet address, merchant and mode). */
export async function findCustomerIdByWallet(db: Db, scope: MerchantScope, walletAddress: string): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`
    select id from customers
    where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and lower(wallet_address) = ${walletAddress.toLowerCase()}`;
  return row?.id;
}
