// Merchant accounts: creation (seed script and dashboard sync), the merchant
// as the dashboard sees it, and the three live-mode checks.
import type { ChainConfig } from '../chain/config.js';
import { checkPayoutAddress } from './payout-address-checks.js';
import { renderChainPayouts } from './chain-payouts.js';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { getAddress } from 'viem';
import type { Db, Sql } from '../db/client.js';
import type { DashboardIdentity } from '../dashboard-sessions/verifier.js';
import type { EmailDispatcher } from '../email/service.js';
import { queueEmail } from '../email/service.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { CURRENT_API_VERSION } from '../http/versions.js';
import { newId } from '../ids.js';
import type { SecretBox } from '../security/encryption.js';
import { isLiveModeEligible, liveModeEligibility } from './eligibility.js';
import * as repo from './repo.js';
import type { BusinessProfileBody, Eligibility, Merchant } from './schemas.js';
import { BUSINESS_SECTORS } from './schemas.js';

export const EMAIL_CODE_TTL_SECONDS = 15 * 60;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
export const TOTP_ISSUER = 'StablePay';
/** Accept the previous and next 30-second step as well (clock drift of the authenticator). */
const TOTP_TOLERANCE_SECONDS = 30;

export async function createMerchant(db: Db, input: { name: string; email?: string | null }): Promise<repo.MerchantRow> {
  return repo.insertMerchant(db, {
    id: newId('merchant'),
    name: input.name,
    email: input.email ?? null,
    apiVersion: CURRENT_API_VERSION,
  });
}

function codeHash(merchantId: string, code: string): Buffer {
  return createHash('sha256').update(`${merchantId}:${code}`).digest();
}

export function renderMerchant(
  row: repo.MerchantRow,
  defaultRateLimitPerMinute: number,
  chain: ChainConfig = {},
  chainPayouts: readonly repo.ChainPayoutRow[] = [],
): Merchant {
  const onboarded = row.onboardedAt && row.businessName && row.businessSector && row.businessCountry && row.payoutAddress;
  return {
    id: row.id,
    object: 'merchant',
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    twoFactorEnabled: row.totpEnabledAt !== null,
    business: onboarded
      ? {
          name: row.businessName!,
          sector: row.businessSector as (typeof BUSINESS_SECTORS)[number],
          country: row.businessCountry!,
          payoutAddress: row.payoutAddress!,
        }
      : null,
    payoutAddress: row.payoutAddress ? getAddress(row.payoutAddress) : null,
    payoutAddresses: [false, true].flatMap((livemode) => renderChainPayouts(chain, livemode, row.payoutAddress, chainPayouts)),
    liveModeEligible: isLiveModeEligible(row),
    apiVersion: row.apiVersion,
    rateLimitPerMinute: row.rateLimitPerMinute ?? defaultRateLimitPerMinute,
    allowedOrigins: row.allowedOrigins,
    createdAt: row.createdAt.toISOString(),
  };
}

export type MerchantServiceDeps = {
  sql: Sql;
  secretBox: SecretBox;
  emails: EmailDispatcher;
  defaultRateLimitPerMinute: number;
  /** The chain modes a payout address is checked against (src/merchants/payout-address-checks.ts). */
  chain?: ChainConfig;
};

export function createMerchantService({ sql, secretBox, emails, defaultRateLimitPerMinute, chain = {} }: MerchantServiceDeps) {
  const render = async (row: repo.MerchantRow) =>
    renderMerchant(row, defaultRateLimitPerMinute, chain, await repo.findChainPayouts(sql, row.id));

  async function load(merchantId: string): Promise<repo.MerchantRow> {
    const row = await repo.findMerchant(sql, merchantId);
    if (!row) throw new NotFoundError('No such merchant.');
    return row;
  }

  return {
    /** Creates the merchant of a dashboard user; a second sync returns the same merchant. */
    async sync(identity: DashboardIdentity, input: { name?: string }): Promise<Merchant> {
      const row = await repo.insertMerchantForSubject(sql, {
        id: newId('merchant'),
        name: input.name ?? identity.name ?? identity.email ?? 'New merchant',
        email: identity.email,
        apiVersion: CURRENT_API_VERSION,
        idpSubject: identity.subject,
      });
      return render(row);
    },

    async me(merchantId: string): Promise<Merchant> {
      return render(await load(merchantId));
    },

    /** Pins the version used when a request sends no Service-Version header (API keys see it within their 30 s cache). */
    async pinApiVersion(merchantId: string, apiVersion: string): Promise<Merchant> {
      await load(merchantId);
      await repo.setPinnedApiVersion(sql, merchantId, apiVersion);
      return render(await load(merchantId));
    },

    /** Replaces the origins allowed to use the merchant's publishable keys (keys see it within their 30 s cache). */
    async setAllowedOrigins(merchantId: string, origins: readonly string[]): Promise<Merchant> {
      await load(merchantId);
      await repo.setAllowedOrigins(sql, merchantId, origins);
      return render(await load(merchantId));
    },

    async eligibility(merchantId: string): Promise<Eligibility> {
      return liveModeEligibility(await load(merchantId));
    },

    /** Emails a 6-digit code to the owner (optionally setting the email first). */
    async startEmailVerification(merchantId: string, input: { email?: string }) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const { email, emailId, expiresAt } = await sql.begin(async (tx) => {
        const merchant = await repo.findMerchantForUpdate(tx, merchantId);
        if (!merchant) throw new NotFoundError('No such merchant.');
        const email = input.email ?? merchant.email;
        if (!email) throw new InvalidRequestError('No owner email is set; send `email`.', { param: 'email' });
        if (input.email) await repo.setEmail(tx, merchantId, input.email);
        await repo.insertEmailVerification(tx, {
          id: newId('emailVerification'),
          merchantId,
          email,
          codeHash: codeHash(merchantId, code),
          ttlSeconds: EMAIL_CODE_TTL_SECONDS,
        });
        const emailId = await queueEmail(tx, {
          merchantId,
          to: email,
          kind: 'email_verification',
          subject: 'Your StablePay verification code',
          text: `Your verification code is ${code}\n\nIt expires in 15 minutes. If you did not ask for it, ignore this email.`,
        });
        return { email, emailId, expiresAt: new Date(Date.now() + EMAIL_CODE_TTL_SECONDS * 1000) };
      });
      await emails.dispatch(sql, [emailId]);
      return { object: 'email_verification' as const, email, expiresAt: expiresAt.toISOString() };
    },

    async confirmEmail(merchantId: string, code: string): Promise<Merchant> {
      const outcome = await sql.begin(async (tx) => {
        const merchant = await repo.findMerchantForUpdate(tx, merchantId);
        if (!merchant) throw new NotFoundError('No such merchant.');
        const open = await repo.findOpenEmailVerification(tx, merchantId);
        if (!open || open.attempts >= EMAIL_CODE_MAX_ATTEMPTS || open.email !== merchant.email) return 'no_code' as const;
        const expected = codeHash(merchantId, code);
        if (!timingSafeEqual(open.codeHash, expected)) {
          await repo.countAttempt(tx, open.id);
          return 'wrong' as const;
        }
        await repo.consumeEmailVerification(tx, open.id);
        await repo.markEmailVerified(tx, merchantId);
        return 'verified' as const;
      });
      if (outcome === 'no_code') {
        throw new InvalidRequestError('No valid verification code is pending; request a new one.', { param: 'code' });
      }
      if (outcome === 'wrong') throw new InvalidRequestError('The verification code is wrong.', { param: 'code' });
      return render(await load(merchantId));
    },

    /** Starts (or restarts) TOTP enrolment: a new secret, stored encrypted until confirmed. */
    async enrolTwoFactor(merchantId: string) {
      const merchant = await load(merchantId);
      const secret = generateSecret();
      await repo.setPendingTotpSecret(sql, merchantId, secretBox.seal(secret));
      const otpauthUri = generateURI({ issuer: TOTP_ISSUER, label: merchant.email ?? merchant.id, secret });
      return { object: 'two_factor_enrolment' as const, secret, otpauthUri };
    },

    async confirmTwoFactor(merchantId: string, code: string): Promise<Merchant> {
      const sealed = await repo.findPendingTotpSecret(sql, merchantId);
      if (!sealed) throw new InvalidRequestError('No two-factor enrolment is pending; start one first.', { param: 'code' });
      const secret = secretBox.open(sealed);
      const result = await verifyTotp({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
      if (!result.valid) throw new InvalidRequestError('The authenticator code is not valid.', { param: 'code' });
      await repo.enableTotp(sql, merchantId, sealed);
      return render(await load(merchantId));
    },

    async submitBusinessProfile(merchantId: string, input: BusinessProfileBody): Promise<Merchant> {
      const payoutAddress = getAddress(input.payoutAddress);
      await checkPayoutAddress({ db: sql, chain }, payoutAddress);
      await sql.begin(async (tx) => {
        // The payout address identifies the merchant on-chain (subscription terms name it), in both modes.
        for (const livemode of [false, true]) {
          const owner = await repo.findMerchantByChainAddress(tx, livemode, payoutAddress);
          if (owner && owner.merchantId !== merchantId) {
            throw new InvalidRequestError('This payout address belongs to another merchant.', { param: 'payoutAddress' });
          }
          await repo.addMerchantChainAddress(tx, { merchantId, livemode, address: payoutAddress });
        }
        await repo.setBusinessProfile(tx, merchantId, {
          businessName: input.businessName,
          sector: input.sector,
          country: input.country,
          payoutAddress,
        });
      });
      return render(await load(merchantId));
    },
  };
}

export type MerchantService = ReturnType<typeof createMerchantService>;
