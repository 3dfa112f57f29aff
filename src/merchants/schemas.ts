// Request and response shapes of the merchant account (dashboard only).
import { isAddress } from 'viem';
import { z } from 'zod';
import { timestamp, emailAddress } from '../http/schemas.js';
import { SUPPORTED_API_VERSIONS } from '../http/versions.js';

export const BUSINESS_SECTORS = [
  'saas',
  'ecommerce',
  'marketplace',
  'digital_goods',
  'gaming',
  'financial_services',
  'education',
  'nonprofit',
  'professional_services',
  'media',
  'travel',
  'other',
] as const;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO']);

/** An ISO 3166-1 alpha-2 country code the runtime's CLDR data knows. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== undefined;
}

// A payout address per chain (issue 39, item 4): the chain's own, else the account's.
export const chainPayout = z
  .object({
    object: z.literal('chain_payout'),
    livemode: z.boolean().describe('The mode the chain is configured for.'),
    chainId: z.number().int().describe('The chain (EIP-155 id): one of the configured chains of the mode.'),
    network: z.string().describe('The chain\'s name for people ("Base", "Anvil (local chain 31337)").'),
    payoutAddress: z
      .string()
      .nullable()
      .describe(
        "Where the merchant is paid on this chain now (EIP-55): relayed payments, deposit sweeps, x402 settlements, subscription terms and the refund allowance on this chain. The address set for this chain, else the account's `payoutAddress`; null: neither is set.",
      ),
    source: z
      .enum(['chain', 'account'])
      .describe(
        "`chain`: an address set for this chain (PUT /v1/merchants/me/payout-addresses/{chainId}); `account`: the account's payout address.",
      ),
  })
  .meta({ id: 'ChainPayout' });

export const merchant = z
  .object({
    id: z.string().describe('Merchant id (prefix `mer_`).'),
    object: z.literal('merchant'),
    name: z.string().describe('Display name: the business name once onboarded, else the name claim of the first login.'),
    email: z.string().nullable().describe('Owner email that receives account notices (leaked keys, verification).'),
    emailVerified: z.boolean().describe('True once the owner confirmed the email verification code.'),
    twoFactorEnabled: z.boolean().describe('True once TOTP enrolment was confirmed with a valid code.'),
    business: z
      .object({
        name: z.string(),
        sector: z.enum(BUSINESS_SECTORS),
        country: z.string().describe('ISO 3166-1 alpha-2 code.'),
        payoutAddress: z.string().describe('EVM address receiving payouts, EIP-55 checksummed.'),
      })
      .nullable()
      .describe('The self-attested business onboarding form; null until submitted.'),
    payoutAddress: z
      .string()
      .nullable()
      .describe(
        'The address new checkouts pay to now (EIP-55): the business profile sets it; a development seed may set it before onboarding. null: no payments can be taken yet.',
      ),
    payoutAddresses: z
      .array(chainPayout)
      .describe(
        'The effective payout address on each configured chain of both modes (test first): the address set for the chain, else `payoutAddress`. Set with PUT /v1/merchants/me/payout-addresses/{chainId}.',
      ),
    liveModeEligible: z.boolean().describe('True when all three live-mode checks pass; live keys can then be issued.'),
    apiVersion: z.string().describe('The pinned API version used when a request sends no Service-Version header.'),
    rateLimitPerMinute: z.number().int().describe('Requests per minute allowed per API key (Starter 10,000; Enterprise custom).'),
    allowedOrigins: z
      .array(z.string())
      .describe('Origins whose web pages may call the API with publishable keys (CORS); `["*"]` allows any origin, `[]` none.'),
    createdAt: timestamp,
  })
  .meta({ id: 'Merchant' });

export const LIVE_MODE_CHECKS = ['email_verification', 'two_factor', 'business_onboarding'] as const;

export const eligibilityReason = z
  .object({
    check: z.enum(LIVE_MODE_CHECKS).describe('Which check is unmet.'),
    code: z
      .enum(['email_missing', 'email_not_verified', 'two_factor_not_enabled', 'business_profile_missing'])
      .describe('Machine-readable reason.'),
    message: z.string().describe('Human-readable explanation.'),
    action: z.string().describe('The endpoint that completes the check, e.g. `POST /v1/merchants/me/email-verification`.'),
  })
  .meta({ id: 'LiveModeIneligibilityReason' });

export const eligibility = z
  .object({
    object: z.literal('live_mode_eligibility'),
    eligible: z.boolean().describe('True when every check passed: live keys may be issued now.'),
    checks: z
      .object({
        emailVerification: z.object({ passed: z.boolean(), completedAt: timestamp.nullable() }),
        twoFactor: z.object({ passed: z.boolean(), completedAt: timestamp.nullable() }),
        businessOnboarding: z.object({ passed: z.boolean(), completedAt: timestamp.nullable() }),
      })
      .describe('Each check with whether it passed and when.'),
    reasons: z.array(eligibilityReason).describe('One entry per unmet check; empty when eligible.'),
  })
  .meta({ id: 'LiveModeEligibility' });

export const syncBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional().describe("Display name; defaults to the token's `name` claim, then its email."),
  })
  .strict();

export const startEmailVerificationBody = z
  .object({
    email: emailAddress(254).optional().describe('Sets (or changes) the owner email first; defaults to the current one.'),
  })
  .strict();

export const emailVerificationStarted = z.object({
  object: z.literal('email_verification'),
  email: z.string().describe('Where the 6-digit code was sent.'),
  expiresAt: timestamp.describe('The code is valid until then (15 minutes) and for 5 attempts.'),
});

export const confirmCodeBody = z
  .object({
    code: z
      .string()
      .regex(/^[0-9]{6}$/, 'must be 6 digits')
      .describe('The 6-digit code.'),
  })
  .strict();

export const twoFactorEnrolment = z.object({
  object: z.literal('two_factor_enrolment'),
  secret: z.string().describe('Base32 TOTP secret (shown once; enter it in an authenticator app).'),
  otpauthUri: z.string().describe('`otpauth://totp/...` URI for a QR code.'),
});

export const businessProfileBody = z
  .object({
    businessName: z.string().trim().min(1).max(200),
    sector: z.enum(BUSINESS_SECTORS),
    country: z
      .string()
      .transform((v) => v.toUpperCase())
      .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code' })
      .describe('ISO 3166-1 alpha-2 country code, e.g. `DE`.'),
    payoutAddress: z
      .string()
      .refine((v) => isAddress(v), { message: 'must be an EVM address (0x + 40 hex; mixed case must be a valid EIP-55 checksum)' })
      .describe('EVM address receiving payouts; stored EIP-55 checksummed.'),
  })
  .strict();

export const apiVersionBody = z
  .object({
    apiVersion: z
      .enum(SUPPORTED_API_VERSIONS as [string, ...string[]])
      .describe('A dated version this deployment serves; used for every request of this merchant that sends no Service-Version header.'),
  })
  .strict();

export const MAX_ALLOWED_ORIGINS = 20;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin as browsers send it in `Origin` (`https://shop.example`, lowercase, no default port, no
 * path), or undefined when `value` is not one. `http://` only for loopback hosts (local development).
 */
export function normaliseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  if (url.hostname.includes('*')) return undefined;
  return url.origin;
}

export const allowedOriginsBody = z
  .object({
    allowedOrigins: z
      .array(
        z
          .string()
          .max(200)
          .transform((value, context) => {
            if (value === '*') return value;
            const origin = normaliseOrigin(value);
            if (origin === undefined) {
              context.addIssue({
                code: 'custom',
                message: 'must be `*` or an origin such as `https://shop.example` (https, or http for localhost; no path)',
              });
              return z.NEVER;
            }
            return origin;
          }),
      )
      .max(MAX_ALLOWED_ORIGINS)
      .transform((origins) => (origins.includes('*') ? ['*'] : [...new Set(origins)]))
      .describe(
        `Up to ${MAX_ALLOWED_ORIGINS} origins whose web pages may use publishable keys, or \`["*"]\` for any origin. ` +
          'Replaces the list; `[]` allows no browser origin.',
      ),
  })
  .strict();

export type Merchant = z.infer<typeof merchant>;
export type Eligibility = z.infer<typeof eligibility>;
export type BusinessProfileBody = z.infer<typeof businessProfileBody>;

// ---- The chains new payment sessions accept by default, per mode (issue 39). ----

export const acceptedChains = z
  .object({
    object: z.literal('accepted_chains'),
    livemode: z.boolean().describe('The mode this setting is of: each mode has its own chains and its own setting.'),
    acceptedChainIds: z
      .array(z.number().int())
      .nullable()
      .describe(
        "The chains a new payment session accepts when its request names none (`acceptedChainIds` of POST /v1/payment-sessions), in the mode's configuration order. null: every chain of the mode, including chains configured later.",
      ),
    chains: z
      .array(
        z.object({
          chainId: z.number().int(),
          network: z.string().describe('The chain\'s name for people ("Base", "Anvil (local chain 31337)").'),
          accepted: z.boolean().describe('Whether a new session accepts it by default.'),
        }),
      )
      .describe("Every chain configured for this mode, in configuration order (the first is a session's default)."),
  })
  .meta({ id: 'AcceptedChains' });

export const acceptedChainsBody = z
  .object({
    acceptedChainIds: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(50)
      .nullable()
      .describe(
        "The chains (EIP-155 ids) new sessions of this mode accept by default: each one of this mode's configured chains (`chains` of GET). null: every chain of the mode. A session may still name its own `acceptedChainIds`, among these.",
      ),
  })
  .strict();

export type AcceptedChains = z.infer<typeof acceptedChains>;

// ---- A payout address per chain (issue 39, item 4). ----

export const chainPayoutList = z
  .object({ object: z.literal('list'), data: z.array(chainPayout) })
  .describe("One entry per configured chain of the request's mode, in configuration order.");

export const chainPayoutParams = z.object({
  chainId: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'must be a chain id (EIP-155, a positive integer)')
    .transform(Number)
    .describe("The chain (EIP-155 id): one of the configured chains of the request's mode."),
});

export const chainPayoutBody = z
  .object({
    payoutAddress: z
      .string()
      .refine((v) => isAddress(v), { message: 'must be an EVM address (0x + 40 hex; mixed case must be a valid EIP-55 checksum)' })
      .nullable()
      .describe(
        "The address that receives this chain's payments; stored EIP-55 checksummed. null: the chain pays the account's payout address again. Sessions created before keep the address they were created with.",
      ),
  })
  .strict();

export type ChainPayout = z.infer<typeof chainPayout>;
export type ChainPayoutList = z.infer<typeof chainPayoutList>;
