// SQL for payment sessions.
import type { Db } from '../db/client.js';
import { createdRangeSql, lowerPrefixPattern, type CreatedRange } from '../http/list-filters.js';
import { metadataSql } from '../http/metadata.js';
import { merchantDisplayNameSql } from '../merchants/repo.js';
import type { MerchantScope } from '../http/principal.js';
import type { PaymentSessionStatus } from './schemas.js';

export type PaymentSessionRow = {
  id: string;
  merchantId: string;
  livemode: boolean;
  amount: string;
  currency: string;
  status: PaymentSessionStatus;
  payTo: string;
  token: string;
  chainId: string;
  expiresAt: Date;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  relaySubmissionId: string | null;
  payer: string | null;
  authorizationNonce: string | null;
  transactionHash: string | null;
  completedAt: Date | null;
  invoiceId: string | null;
  /** The API key that created it (a publishable key reads only its own sessions); null otherwise. */
  createdByApiKeyId: string | null;
  /** The storefront product it was bought for (POST /store/{slug}/products/{id}/purchase); null otherwise. */
  productId: string | null;
  /** The product's name when it was bought (a later rename does not change the record of the sale). */
  productName: string | null;
  /** What x402 said of the payment when an x402 seller's settle created the session (x402_payments); null otherwise. */
  x402: X402Fields | null;
  /** Where the customer may pay by plain transfer (null for sessions created before deposit addresses). */
  depositAddress: string | null;
  /** Credited deposits, summed; and what they paid beyond the amount (refundable). */
  amountReceived: string;
  amountExcess: string;
  /** Deposits that arrived after the session ended (swept and refundable). */
  amountLate: string;
  /** Relayed payments of it that confirmed, summed (at most one, for what remained due when it was signed). */
  amountRelayed: string;
  /** Refunds of it that are pending, processing or succeeded, summed. */
  amountRefunded: string;
  /** The test clock whose time its expiry follows (issue #30); null: wall time. */
  testClockId: string | null;
  /** Why its latest relayed payment failed, while it is open again after it; null otherwise. */
  lastPaymentError: { code: string; reason: string } | null;
  /** The chains it accepts, each with its token there, first = chainId (null: before issue 39, its chainId alone). */
  acceptedChains: AcceptedChain[] | null;
  /** The chain of `transactionHash` (the relayed payment's or the completing deposit's); null until completed. */
  transactionChainId: string | null;
  /** The customer of the wallet that paid it (set at completion; docs/decisions.md "One-off payers as customers"). */
  customerId: string | null;
  /** The email typed on the hosted page, unverified. */
  customerEmail: string | null;
  /** The one wallet whose credited transfers paid it (lower-case); null for none or several. */
  depositSender: string | null;
  createdAt: Date;
};

/**
 * A chain a session may be paid on, the token it is paid in there and (sessions created since a payout per
 * chain) the merchant's payout there and the session's deposit address for that payout.
 */
export type AcceptedChain = { chainId: number; token: string; payTo?: string; depositAddress?: string };

/** The chains a session accepts: the stored list, or (a session created before several chains) its own chain. */
export function acceptedChainsOf(row: Pick<PaymentSessionRow, 'acceptedChains' | 'chainId' | 'token'>): AcceptedChain[] {
  return row.acceptedChains ?? [{ chainId: Number(row.chainId), token: row.token }];
}

type SessionPayouts = Pick<PaymentSessionRow, 'acceptedChains' | 'chainId' | 'token' | 'payTo' | 'depositAddress'>;

/** Where the session pays the merchant on `chainId`: the chain's stored payout, else (older sessions) its one payTo. */
export function payToOn(row: SessionPayouts, chainId: number): string {
  return acceptedChainsOf(row).find((chain) => chain.chainId === chainId)?.payTo ?? row.payTo;
}

/** The session's deposit address on `chainId`: the chain's own (its payout's), else the session's one address. */
export function depositAddressOn(row: SessionPayouts, chainId: number): string | null {
  return acceptedChainsOf(row).find((chain) => chain.chainId === chainId)?.depositAddress ?? row.depositAddress;
}

/** Every deposit address of the session with the payout its forwarder's salt binds (one per distinct payout). */
export function depositAddressesOf(row: SessionPayouts): { address: string; payTo: string }[] {
  const all = [
    ...(row.depositAddress ? [{ address: row.depositAddress, payTo: row.payTo }] : []),
    ...acceptedChainsOf(row).flatMap((chain) =>
      chain.depositAddress && chain.payTo ? [{ address: chain.depositAddress, payTo: chain.payTo }] : [],
    ),
  ];
  return all.filter((entry, i) => all.findIndex((other) => other.address.toLowerCase() === entry.address.toLowerCase()) === i);
}

/** The payout `address` (one of the session's deposit addresses) sweeps to; undefined when it is not one of them. */
export function payoutBoundTo(row: SessionPayouts, address: string): string | undefined {
  return depositAddressesOf(row).find((entry) => entry.address.toLowerCase() === address.toLowerCase())?.payTo;
}

export type X402Fields = {
  scheme: string;
  network: string;
  payer: string;
  transaction: string | null;
  resourceUrl: string | null;
  resourceDescription: string | null;
  resourceMimeType: string | null;
};

const columns = (db: Db) =>
  db`s.id, s.merchant_id as "merchantId", s.livemode, s.amount::text as amount, s.currency, s.status, s.pay_to as "payTo",
     s.token, s.chain_id::text as "chainId", s.expires_at as "expiresAt", s.success_url as "successUrl",
     s.cancel_url as "cancelUrl", s.metadata, s.relay_submission_id as "relaySubmissionId", s.payer,
     s.authorization_nonce as "authorizationNonce", s.transaction_hash as "transactionHash",
     s.completed_at as "completedAt", (select i.id from invoices i where i.session_id = s.id) as "invoiceId",
     s.created_by_api_key_id as "createdByApiKeyId", s.product_id as "productId",
     s.product_name as "productName",
     (select json_build_object('scheme', x.scheme, 'network', x.network, 'payer', x.payer,
                               'transaction', (select r.transaction_hash from relay_submissions r where r.id = x.relay_submission_id),
                               'resourceUrl', x.resource_url, 'resourceDescription', x.resource_description,
                               'resourceMimeType', x.resource_mime_type)
      from x402_payments x where x.payment_session_id = s.id) as x402,
     s.deposit_address as "depositAddress", s.amount_received::text as "amountReceived",
     s.amount_excess::text as "amountExcess",
     (select coalesce(sum(d.amount), 0)::text from deposits d where d.payment_session_id = s.id and d.status = 'late') as "amountLate",
     (select coalesce(sum((r.call->>'value')::numeric), 0)::text from relay_submissions r
      where r.payment_session_id = s.id and r.kind = 'payment' and r.status = 'confirmed') as "amountRelayed",
     (select coalesce(sum(r.amount), 0)::text from refunds r
      where r.payment_session_id = s.id and r.status in ('requires_action', 'pending', 'processing', 'succeeded')) as "amountRefunded",
     s.test_clock_id as "testClockId",
     (select case when r.status = 'failed'
                  then json_build_object('code', coalesce(r.failure_code, 'Reverted'),
                                         'reason', coalesce(r.failure_reason, 'The payment failed on-chain.')) end
      from relay_submissions r where r.payment_session_id = s.id and s.status = 'open'
      order by r.created_at desc, r.id desc limit 1) as "lastPaymentError",
     s.accepted_chains as "acceptedChains",
     (select coalesce(
        (select r.chain_id from relay_submissions r where r.id = s.relay_submission_id and r.transaction_hash = s.transaction_hash),
        (select d.chain_id from deposits d where d.payment_session_id = s.id and d.transaction_hash = s.transaction_hash
         order by d.id limit 1),
        case when s.transaction_hash is not null then s.chain_id end))::text as "transactionChainId",
     s.customer_id as "customerId", s.customer_email as "customerEmail",
     (select case when count(distinct lower(d.from_address)) = 1 then min(lower(d.from_address)) end
      from deposits d where d.payment_session_id = s.id and d.status = 'credited') as "depositSender",
     s.created_at as "createdAt"`;

export async function insertPaymentSession(
  db: Db,
  s: Pick<
    PaymentSessionRow,
    'id' | 'merchantId' | 'livemode' | 'amount' | 'currency' | 'payTo' | 'token' | 'expiresAt' | 'successUrl' | 'cancelUrl' | 'metadata'
  > & {
    chainId: number;
    createdByApiKeyId?: string | null;
    productId?: string | null;
    productName?: string | null;
    depositAddress?: string | null;
    /** Which factory made the deposit address (src/chain/deposits/deposit-address.ts). */
    depositFactoryVersion?: number;
    testClockId?: string | null;
    acceptedChains?: AcceptedChain[] | null;
  },
): Promise<PaymentSessionRow> {
  await db`
    insert into payment_sessions (id, merchant_id, livemode, amount, currency, status, pay_to, token, chain_id, expires_at,
                                  success_url, cancel_url, metadata, created_by_api_key_id, product_id,
                                  product_name, deposit_address, test_clock_id, deposit_factory_version, accepted_chains)
    values (${s.id}, ${s.merchantId}, ${s.livemode}, ${s.amount}, ${s.currency}, 'open', ${s.payTo}, ${s.token}, ${s.chainId},
            ${s.expiresAt}, ${s.successUrl}, ${s.cancelUrl}, ${db.json(s.metadata)}, ${s.createdByApiKeyId ?? null}, ${s.productId ?? null},
            ${s.productName ?? null}, ${s.depositAddress ?? null}, ${s.testClockId ?? null}, ${s.depositFactoryVersion ?? 1},
            ${s.acceptedChains ? db.json(s.acceptedChains) : null})`;
  return (await findPaymentSessionById(db, s.id))!;
}

export async function findPaymentSession(db: Db, scope: MerchantScope, id: string): Promise<PaymentSessionRow | undefined> {
  const [row] = await db<PaymentSessionRow[]>`
    select ${columns(db)} from payment_sessions s
    where s.id = ${id} and s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode}`;
  return row;
}

export async function findPaymentSessionById(db: Db, id: string): Promise<PaymentSessionRow | undefined> {
  const [row] = await db<PaymentSessionRow[]>`select ${columns(db)} from payment_sessions s where s.id = ${id}`;
  return row;
}

/** Locks the session row (refunds and relay checks serialise on it). */
export async function lockPaymentSession(db: Db, scope: MerchantScope, id: string): Promise<PaymentSessionRow | undefined> {
  await db`select 1 from payment_sessions where id = ${id} and merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} for update`;
  return findPaymentSession(db, scope, id);
}

export type PaymentSessionFilter = CreatedRange & {
  status?: PaymentSessionRow['status'];
  q?: string;
  chainId?: number;
  customerId?: string;
  metadata?: Record<string, string>;
};

export async function listPaymentSessions(
  db: Db,
  scope: MerchantScope,
  page: PaymentSessionFilter & { before?: string; limit: number },
): Promise<PaymentSessionRow[]> {
  return db<PaymentSessionRow[]>`
    select ${columns(db)} from payment_sessions s
    where s.merchant_id = ${scope.merchantId} and s.livemode = ${scope.livemode}
      ${page.status ? db`and s.status = ${page.status}` : db``}
      ${page.chainId === undefined ? db`` : acceptsChain(db, page.chainId)}
      ${page.customerId ? db`and s.customer_id = ${page.customerId}` : db``}
      ${metadataSql(db, 's.metadata', page.metadata)}
      ${createdRangeSql(db, 's.created_at', page)}
      ${page.q ? searchSessions(db, scope, page.q) : db``}
      ${page.before ? db`and s.id < ${page.before}` : db``}
    order by s.id desc limit ${page.limit + 1}`;
}

/** A session that accepts the chain (one created before several chains accepts its chain_id alone). */
function acceptsChain(db: Db, chainId: number) {
  return db`and (s.accepted_chains @> ${db.json([{ chainId }])}::jsonb or (s.accepted_chains is null and s.chain_id = ${chainId}))`;
}

/** A session matching `q`: its id, payer or transaction hash, or the email prefix of its payer's (or its own) customer. */
function searchSessions(db: Db, scope: MerchantScope, q: string) {
  return db`and (s.id = ${q} or lower(s.payer) = ${q.toLowerCase()} or s.transaction_hash = ${q}
    or lower(s.payer) in (select c.wallet_address from customers c
      where c.merchant_id = ${scope.merchantId} and c.livemode = ${scope.livemode} and lower(c.email) like ${lowerPrefixPattern(q)})
    or s.customer_id in (select c.id from customers c
      where c.merchant_id = ${scope.merchantId} and c.livemode = ${scope.livemode} and lower(c.email) like ${lowerPrefixPattern(q)}))`;
}

/**
 * open -> processing when a relay submission for it was recorded. Returns false when it was not open,
 * or (given `amountDue`) when credited transfers no longer leave exactly that much to pay.
 */
export async function markProcessing(
  db: Db,
  id: string,
  payment: { relaySubmissionId: string; payer: string; authorizationNonce: string; amountDue?: string },
): Promise<boolean> {
  const rows = await db`
    update payment_sessions set status = 'processing', relay_submission_id = ${payment.relaySubmissionId},
           payer = ${payment.payer}, authorization_nonce = ${payment.authorizationNonce}, updated_at = now()
    where id = ${id} and status = 'open' and expires_at > now()
      ${payment.amountDue === undefined ? db`` : db`and amount - amount_received = ${payment.amountDue}`}
    returning id`;
  return rows.length === 1;
}

/** processing -> completed. Returns the row when this call completed it. */
export async function markCompleted(db: Db, id: string, transactionHash: string): Promise<boolean> {
  const rows = await db`
    update payment_sessions set status = 'completed', transaction_hash = ${transactionHash}, completed_at = now(), updated_at = now()
    where id = ${id} and status in ('open', 'processing')
    returning id`;
  return rows.length === 1;
}

/** processing -> open (or expired when past expiresAt) after its relayed payment failed. */
export async function reopenAfterFailure(db: Db, id: string): Promise<void> {
  await db`
    update payment_sessions
    set status = case when expires_at > now() then 'open' else 'expired' end,
        relay_submission_id = null, payer = null, authorization_nonce = null, updated_at = now()
    where id = ${id} and status = 'processing'`;
}

/** The customer of the wallet that paid, and the email typed at checkout, kept on the session (completion). */
export async function setSessionCustomer(db: Db, id: string, customerId: string): Promise<void> {
  await db`update payment_sessions set customer_id = ${customerId}, updated_at = now() where id = ${id} and customer_id is null`;
}

/** The email the payer typed on the hosted page (the last one given before the session ended). */
export async function setCustomerEmail(db: Db, id: string, email: string): Promise<boolean> {
  const rows = await db`
    update payment_sessions set customer_email = ${email}, updated_at = now()
    where id = ${id} and status in ('open', 'processing') returning id`;
  return rows.length === 1;
}

/** open -> expired. Returns false when the session was not open (paid, processing, cancelled). */
export async function markExpired(db: Db, id: string): Promise<boolean> {
  const rows = await db`
    update payment_sessions set status = 'expired', updated_at = now() where id = ${id} and status = 'open' returning id`;
  return rows.length === 1;
}

/** open -> cancelled. Returns false when it was not open. */
export async function markCancelled(db: Db, id: string): Promise<boolean> {
  const rows = await db`
    update payment_sessions set status = 'cancelled', updated_at = now() where id = ${id} and status = 'open' returning id`;
  return rows.length === 1;
}

/** The merchant as customers see it in a mode: its one display name (merchantDisplayNameSql), payout and accepted chains. */
export async function findMerchantDisplay(
  db: Db,
  owner: { merchantId: string; livemode: boolean },
): Promise<{ name: string; payoutAddress: string | null; acceptedChainIds: string[] | null } | undefined> {
  const [row] = await db<{ name: string; payoutAddress: string | null; acceptedChainIds: string[] | null }[]>`
    select ${merchantDisplayNameSql(db, owner.livemode)} as name, payout_address as "payoutAddress",
           accepted_chain_ids::text[] as "acceptedChainIds" from merchants where id = ${owner.merchantId}`;
  return row;
}

/** What the hosted checkout tells the customer about the seller and the purchase. */
export type CheckoutContext = {
  storeName: string | null;
  logoUrl: string | null;
  supportEmail: string | null;
  invoiceNumber: string | null;
  invoiceLineItems: { description: string; quantity: number; unitAmount: string }[] | null;
};

export async function findCheckoutContext(
  db: Db,
  session: { id: string; merchantId: string; livemode: boolean },
): Promise<CheckoutContext> {
  const [row] = await db<CheckoutContext[]>`
    select sf.name as "storeName", sf.logo_url as "logoUrl", sf.support_email as "supportEmail",
           i.number as "invoiceNumber", i.line_items as "invoiceLineItems"
    from (select 1) one
    left join storefronts sf on sf.merchant_id = ${session.merchantId} and sf.livemode = ${session.livemode}
    left join invoices i on i.session_id = ${session.id}`;
  return row!;
}
