// SQL for merchants and their account state (dashboard identity, live-mode checks).
import { getAddress } from 'viem';
import type { Db } from '../db/client.js';

export type MerchantRow = {
  id: string;
  name: string;
  email: string | null;
  apiVersion: string;
  createdAt: Date;
  idpSubject: string | null;
  emailVerifiedAt: Date | null;
  totpEnabledAt: Date | null;
  businessName: string | null;
  businessSector: string | null;
  businessCountry: string | null;
  payoutAddress: string | null;
  onboardedAt: Date | null;
  rateLimitPerMinute: number | null;
  allowedOrigins: string[];
};

const columns = (db: Db) =>
  db`id, name, email, api_version as "apiVersion", created_at as "createdAt", idp_subject as "idpSubject",
     email_verified_at as "emailVerifiedAt", totp_enabled_at as "totpEnabledAt", business_name as "businessName",
     business_sector as "businessSector", business_country as "businessCountry", payout_address as "payoutAddress",
     onboarded_at as "onboardedAt", rate_limit_per_minute as "rateLimitPerMinute", allowed_origins as "allowedOrigins"`;

export async function insertMerchant(
  db: Db,
  merchant: { id: string; name: string; email: string | null; apiVersion: string; idpSubject?: string | null },
): Promise<MerchantRow> {
  const [row] = await db<MerchantRow[]>`
    insert into merchants (id, name, email, api_version, idp_subject)
    values (${merchant.id}, ${merchant.name}, ${merchant.email}, ${merchant.apiVersion}, ${merchant.idpSubject ?? null})
    returning ${columns(db)}`;
  return row!;
}

/** Creates the merchant of a dashboard user unless one exists; returns it either way. */
export async function insertMerchantForSubject(
  db: Db,
  merchant: { id: string; name: string; email: string | null; apiVersion: string; idpSubject: string },
): Promise<MerchantRow> {
  await db`
    insert into merchants (id, name, email, api_version, idp_subject)
    values (${merchant.id}, ${merchant.name}, ${merchant.email}, ${merchant.apiVersion}, ${merchant.idpSubject})
    on conflict (idp_subject) do nothing`;
  return (await findMerchantBySubject(db, merchant.idpSubject))!;
}

export async function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db<MerchantRow[]>`select ${columns(db)} from merchants where id = ${id}`;
  return row;
}

export async function findMerchantForUpdate(db: Db, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db<MerchantRow[]>`select ${columns(db)} from merchants where id = ${id} for update`;
  return row;
}

export async function findMerchantBySubject(db: Db, subject: string): Promise<MerchantRow | undefined> {
  const [row] = await db<MerchantRow[]>`select ${columns(db)} from merchants where idp_subject = ${subject}`;
  return row;
}

export async function setPinnedApiVersion(db: Db, id: string, apiVersion: string): Promise<void> {
  await db`update merchants set api_version = ${apiVersion} where id = ${id}`;
}

export async function setEmail(db: Db, id: string, email: string): Promise<void> {
  await db`update merchants set email = ${email}, email_verified_at = null where id = ${id} and email is distinct from ${email}`;
}

export async function markEmailVerified(db: Db, id: string): Promise<void> {
  await db`update merchants set email_verified_at = now() where id = ${id}`;
}

export async function setPendingTotpSecret(db: Db, id: string, sealed: Buffer): Promise<void> {
  await db`update merchants set totp_pending_secret = ${sealed} where id = ${id}`;
}

export async function findPendingTotpSecret(db: Db, id: string): Promise<Buffer | null> {
  const [row] = await db<{ sealed: Buffer | null }[]>`select totp_pending_secret as sealed from merchants where id = ${id}`;
  return row?.sealed ?? null;
}

export async function enableTotp(db: Db, id: string, sealed: Buffer): Promise<void> {
  await db`
    update merchants set totp_secret = ${sealed}, totp_pending_secret = null, totp_enabled_at = now()
    where id = ${id}`;
}

export async function setBusinessProfile(
  db: Db,
  id: string,
  profile: { businessName: string; sector: string; country: string; payoutAddress: string },
): Promise<void> {
  await db`
    update merchants set business_name = ${profile.businessName}, business_sector = ${profile.sector},
      business_country = ${profile.country}, payout_address = ${profile.payoutAddress}, onboarded_at = now()
    where id = ${id}`;
}

export async function setAllowedOrigins(db: Db, id: string, origins: readonly string[]): Promise<void> {
  await db`update merchants set allowed_origins = ${db.array([...origins])} where id = ${id}`;
}

export async function setRateLimitOverride(db: Db, id: string, perMinute: number | null): Promise<void> {
  await db`update merchants set rate_limit_per_minute = ${perMinute} where id = ${id}`;
}

export type EmailVerificationRow = {
  id: string;
  merchantId: string;
  email: string;
  codeHash: Buffer;
  attempts: number;
  expiresAt: Date;
  consumedAt: Date | null;
};

export async function insertEmailVerification(
  db: Db,
  row: { id: string; merchantId: string; email: string; codeHash: Buffer; ttlSeconds: number },
): Promise<void> {
  await db`
    insert into email_verifications (id, merchant_id, email, code_hash, expires_at)
    values (${row.id}, ${row.merchantId}, ${row.email}, ${row.codeHash}, now() + make_interval(secs => ${row.ttlSeconds}))`;
}

/** The latest unconsumed, unexpired verification of the merchant, locked. */
export async function findOpenEmailVerification(db: Db, merchantId: string): Promise<EmailVerificationRow | undefined> {
  const [row] = await db<EmailVerificationRow[]>`
    select id, merchant_id as "merchantId", email, code_hash as "codeHash", attempts, expires_at as "expiresAt",
           consumed_at as "consumedAt"
    from email_verifications
    where merchant_id = ${merchantId} and consumed_at is null and expires_at > now()
    order by id desc limit 1 for update`;
  return row;
}

export async function countAttempt(db: Db, id: string): Promise<void> {
  await db`update email_verifications set attempts = attempts + 1 where id = ${id}`;
}

export async function consumeEmailVerification(db: Db, id: string): Promise<void> {
  await db`update email_verifications set consumed_at = now() where id = ${id}`;
}

/** Binds an existing merchant to a dashboard user. */
export async function setIdpSubject(db: Db, id: string, subject: string): Promise<void> {
  await db`update merchants set idp_subject = ${subject} where id = ${id}`;
}

/** Where the merchant receives funds (the relay pays only to it); set by business onboarding and the dev seed. */
/**
 * The one name customers see for a merchant in a mode, on every customer-facing surface (hosted payment, enrolment
 * and renewal pages, invoices and their PDF, receipts, emails): the name of its storefront in that mode (the public
 * name it chose for buyers), else the business name given at onboarding, else the account's name. An expression
 * over a `merchants` row (docs/decisions.md, One merchant name).
 */
export const merchantDisplayNameSql = (db: Db, livemode: boolean) =>
  db`coalesce((select sf.name from storefronts sf where sf.merchant_id = merchants.id and sf.livemode = ${livemode}),
              merchants.business_name, merchants.name)`;

export async function setPayoutAddress(db: Db, id: string, payoutAddress: string | null): Promise<void> {
  await db`update merchants set payout_address = ${payoutAddress} where id = ${id}`;
}

/**
 * The merchant (and mode) that owns an on-chain payout address, if any. Given `chainId`, only an address
 * that is the merchant's on that chain: the account's payout address (every chain) or one set for that chain.
 */
export async function findMerchantByChainAddress(
  db: Db,
  livemode: boolean,
  address: string,
  chainId?: number,
): Promise<{ merchantId: string; gracePeriodHours: number } | undefined> {
  const [row] = await db<{ merchantId: string; gracePeriodHours: number }[]>`
    select a.merchant_id as "merchantId", m.subscription_grace_period_hours as "gracePeriodHours"
    from merchant_chain_addresses a join merchants m on m.id = a.merchant_id
    where a.livemode = ${livemode} and a.address = ${address.toLowerCase()}
      ${chainId === undefined ? db`` : db`and (a.chain_ids is null or ${chainId}::bigint = any(a.chain_ids))`}`;
  return row;
}

/**
 * Registers a payout address of a merchant; registering the same one again is a no-op. Without `chainId` it
 * is the merchant's on every chain of the mode (the account's payout address); with one, on that chain too.
 * Another merchant's address is left as it is (callers refuse it first: see the owner check of the services).
 */
export async function addMerchantChainAddress(
  db: Db,
  input: { merchantId: string; livemode: boolean; address: string; chainId?: number },
): Promise<void> {
  const chainIds = input.chainId === undefined ? null : [input.chainId];
  await db`
    insert into merchant_chain_addresses (merchant_id, livemode, address, chain_ids)
    values (${input.merchantId}, ${input.livemode}, ${input.address.toLowerCase()}, ${chainIds}::bigint[])
    on conflict (livemode, address) do update
      set chain_ids = case when merchant_chain_addresses.chain_ids is null or excluded.chain_ids is null then null
                           else array(select distinct unnest(merchant_chain_addresses.chain_ids || excluded.chain_ids) order by 1) end
      where merchant_chain_addresses.merchant_id = excluded.merchant_id`;
}

/** The payout addresses a merchant set for single chains of a mode (chain id -> address). */
export async function findChainPayouts(db: Db, merchantId: string, livemode?: boolean): Promise<ChainPayoutRow[]> {
  return db<ChainPayoutRow[]>`
    select livemode, chain_id::int as "chainId", payout_address as "payoutAddress", updated_at as "updatedAt"
    from merchant_chain_payouts
    where merchant_id = ${merchantId} ${livemode === undefined ? db`` : db`and livemode = ${livemode}`}
    order by livemode, chain_id`;
}

export type ChainPayoutRow = { livemode: boolean; chainId: number; payoutAddress: string; updatedAt: Date };

export async function upsertChainPayout(
  db: Db,
  row: { merchantId: string; livemode: boolean; chainId: number; payoutAddress: string },
): Promise<void> {
  await db`
    insert into merchant_chain_payouts (merchant_id, livemode, chain_id, payout_address)
    values (${row.merchantId}, ${row.livemode}, ${row.chainId}, ${row.payoutAddress})
    on conflict (merchant_id, livemode, chain_id) do update set payout_address = excluded.payout_address, updated_at = now()`;
}

export async function deleteChainPayout(db: Db, scope: { merchantId: string; livemode: boolean }, chainId: number): Promise<void> {
  await db`delete from merchant_chain_payouts where merchant_id = ${scope.merchantId} and livemode = ${scope.livemode} and chain_id = ${chainId}`;
}

/**
 * Where the merchant is paid on one chain of a mode: the address set for that chain, else the account's
 * payout address (null: neither is set). Every path that pays the merchant on a chain reads this.
 */
export async function findPayoutAddressOn(
  db: Db,
  scope: { merchantId: string; livemode: boolean },
  chainId: number,
): Promise<string | null> {
  const [row] = await db<{ payoutAddress: string | null }[]>`
    select coalesce(
      (select p.payout_address from merchant_chain_payouts p
       where p.merchant_id = m.id and p.livemode = ${scope.livemode} and p.chain_id = ${chainId}),
      m.payout_address) as "payoutAddress"
    from merchants m where m.id = ${scope.merchantId}`;
  return row?.payoutAddress ?? null;
}

export async function findSubscriptionGracePeriodHours(db: Db, merchantId: string): Promise<number> {
  const [row] = await db<{ hours: number }[]>`select subscription_grace_period_hours as hours from merchants where id = ${merchantId}`;
  return row?.hours ?? 72;
}

export async function setSubscriptionGracePeriodHours(db: Db, merchantId: string, hours: number): Promise<void> {
  await db`update merchants set subscription_grace_period_hours = ${hours} where id = ${merchantId}`;
}

/** Whether `address` is a deposit address of any payment session (any merchant, any mode, any chain). */
export async function isDepositAddress(db: Db, address: string): Promise<boolean> {
  const rows = await db`
    select 1 from payment_sessions where lower(deposit_address) = ${address.toLowerCase()}
    union all
    select 1 from payment_sessions where accepted_chains @> ${db.json([{ depositAddress: getAddress(address) }])}::jsonb
    limit 1`;
  return rows.length > 0;
}

/** The account's accepted chains of both modes (null: never restricted). */
export async function findAcceptedChainIds(db: Db, merchantId: string): Promise<string[] | null | undefined> {
  const [row] = await db<{ ids: string[] | null }[]>`select accepted_chain_ids::text[] as ids from merchants where id = ${merchantId}`;
  return row ? row.ids : undefined;
}

/**
 * Replaces one mode's part of the accepted chains in one statement (no lost update between two modes'
 * writes): the ids of `modeChainIds` give way to `chosen`, the other mode's ids stay. Null when none is left.
 */
export async function replaceModeAcceptedChainIds(
  db: Db,
  merchantId: string,
  modeChainIds: readonly number[],
  chosen: readonly number[],
): Promise<string[] | null> {
  const [row] = await db<{ ids: string[] | null }[]>`
    update merchants set accepted_chain_ids = (
      select array_agg(id order by id) from (
        select id from unnest(coalesce(accepted_chain_ids, '{}'::bigint[])) as kept(id) where id <> all(${modeChainIds as number[]}::bigint[])
        union
        select id from unnest(${chosen as number[]}::bigint[]) as chosen(id)
      ) ids
    )
    where id = ${merchantId}
    returning accepted_chain_ids::text[] as ids`;
  return row ? row.ids : null;
}
