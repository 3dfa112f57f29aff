// Turns a verified dashboard token into a principal: the merchant is found by
// the identity provider's user id; the mode is chosen per request with the
// `Service-Mode` header (default test; live only once live-mode eligible).
import { SCOPES, type Scope } from '../api-keys/scopes.js';
import type { Sql } from '../db/client.js';
import { InvalidRequestError, MerchantNotSyncedError, PermissionDeniedError } from '../errors.js';
import { isLiveModeEligible } from '../merchants/eligibility.js';
import { findMerchantBySubject } from '../merchants/repo.js';
import type { DashboardIdentity, DashboardTokenVerifier } from './verifier.js';

export const MODE_HEADER = 'service-mode';

export type DashboardPrincipal = {
  type: 'dashboard';
  /** The identity provider's user id. */
  subject: string;
  merchantId: string;
  livemode: boolean;
  /** A dashboard session may do everything its merchant may. */
  scopes: ReadonlySet<Scope>;
  pinnedApiVersion: string;
  /** The merchant's Enterprise override of the per-key limit, applied per dashboard user. */
  rateLimitPerMinute: number | null;
};

const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);

export type DashboardSessions = {
  /** Verifies the token only (POST /v1/auth/sync needs no merchant). */
  identify(token: string): Promise<DashboardIdentity>;
  /** Verifies the token and resolves its merchant; merchant_not_synced when none exists. */
  authenticate(
    token: string,
    modeHeader: string | string[] | undefined,
  ): Promise<{ identity: DashboardIdentity; principal: DashboardPrincipal }>;
};

export function parseMode(header: string | string[] | undefined): boolean {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'test') return false;
  if (value === 'live') return true;
  throw new InvalidRequestError('Service-Mode must be `test` or `live`.', { param: 'Service-Mode' });
}

export function createDashboardSessions(sql: Sql, verifier: DashboardTokenVerifier): DashboardSessions {
  return {
    identify: (token) => verifier.verify(token),
    async authenticate(token, modeHeader) {
      const identity = await verifier.verify(token);
      const merchant = await findMerchantBySubject(sql, identity.subject);
      if (!merchant) throw new MerchantNotSyncedError();
      const livemode = parseMode(modeHeader);
      if (livemode && !isLiveModeEligible(merchant)) {
        throw new PermissionDeniedError('Live mode needs live-mode eligibility; see GET /v1/merchants/me/live-mode-eligibility.', {
          param: 'Service-Mode',
        });
      }
      return {
        identity,
        principal: {
          type: 'dashboard',
          subject: identity.subject,
          merchantId: merchant.id,
          livemode,
          scopes: ALL_SCOPES,
          pinnedApiVersion: merchant.apiVersion,
          rateLimitPerMinute: merchant.rateLimitPerMinute,
        },
      };
    },
  };
}
