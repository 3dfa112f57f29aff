// Live-mode eligibility: three self-service checks, no manual review. A live
// key can be issued the moment all three pass.
import type { MerchantRow } from './repo.js';
import type { Eligibility } from './schemas.js';

type EligibilityFacts = Pick<MerchantRow, 'email' | 'emailVerifiedAt' | 'totpEnabledAt' | 'onboardedAt'>;

export function isLiveModeEligible(m: EligibilityFacts): boolean {
  return m.emailVerifiedAt !== null && m.totpEnabledAt !== null && m.onboardedAt !== null;
}

export function liveModeEligibility(m: EligibilityFacts): Eligibility {
  const reasons: Eligibility['reasons'] = [];
  if (!m.emailVerifiedAt) {
    reasons.push(
      m.email
        ? {
            check: 'email_verification',
            code: 'email_not_verified',
            message: `The owner email ${m.email} is not verified yet.`,
            action: 'POST /v1/merchants/me/email-verification',
          }
        : {
            check: 'email_verification',
            code: 'email_missing',
            message: 'No owner email is set; send one to be verified.',
            action: 'POST /v1/merchants/me/email-verification',
          },
    );
  }
  if (!m.totpEnabledAt) {
    reasons.push({
      check: 'two_factor',
      code: 'two_factor_not_enabled',
      message: 'Two-factor authentication (TOTP) is not enabled.',
      action: 'POST /v1/merchants/me/two-factor',
    });
  }
  if (!m.onboardedAt) {
    reasons.push({
      check: 'business_onboarding',
      code: 'business_profile_missing',
      message: 'The business onboarding form (name, sector, country, payout address) is not submitted.',
      action: 'PUT /v1/merchants/me/business-profile',
    });
  }
  const at = (d: Date | null) => ({ passed: d !== null, completedAt: d ? d.toISOString() : null });
  return {
    object: 'live_mode_eligibility',
    eligible: reasons.length === 0,
    checks: {
      emailVerification: at(m.emailVerifiedAt),
      twoFactor: at(m.totpEnabledAt),
      businessOnboarding: at(m.onboardedAt),
    },
    reasons,
  };
}
