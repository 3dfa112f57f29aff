// The `recovery` capability's rules, as pure functions: when the agent retries
// an at_risk subscription's charge inside its grace window, and the customer
// notice rendered from the merchant's template. Imported by the workflow
// (workflows/subscription-recovery.ts), so nothing here touches I/O or the clock.

export type RecoveryStrategy = 'once' | 'twice' | 'daily';

const HOUR_MS = 3_600_000;

/**
 * Hours after the first refused charge (the start of the grace window, G hours long) at which the
 * agent retries:
 * - `once`: one retry, at G (the grace deadline);
 * - `twice`: two retries, at G/2 and at G;
 * - `daily`: one retry every 24 hours (24, 48, ... below G), and one at G.
 * The last retry is always at the deadline: when it fails the subscription lapses. G = 0 gives one
 * retry at once. Fractions of an hour are kept (G = 5, `twice`: 2.5 h and 5 h).
 */
export function recoveryRetryOffsetsHours(strategy: RecoveryStrategy, gracePeriodHours: number): number[] {
  const g = Math.max(0, gracePeriodHours);
  switch (strategy) {
    case 'once':
      return [g];
    case 'twice':
      return g === 0 ? [0] : [g / 2, g];
    case 'daily': {
      const out: number[] = [];
      for (let h = 24; h < g; h += 24) out.push(h);
      out.push(g);
      return out;
    }
  }
}

/** The retry times (epoch ms) of a grace window that started at `startedAtMs`. */
export function recoveryRetryTimes(strategy: RecoveryStrategy, gracePeriodHours: number, startedAtMs: number): number[] {
  return recoveryRetryOffsetsHours(strategy, gracePeriodHours).map((h) => startedAtMs + Math.round(h * HOUR_MS));
}

/** The fields a notification template may use, as `{name}`. */
export type RecoveryNoticeFields = {
  merchantName: string;
  planName: string;
  /** The amount due, formatted (`40 USDC`). */
  amount: string;
  currency: string;
  subscriptionId: string;
  customerEmail: string;
  /** The subscription's status (`at_risk`). */
  status: string;
  /** ISO timestamp: the subscription lapses if not paid by then. */
  graceDeadline: string;
  /** The hosted page where the customer renews the allowance; a transfer to the wallet retries too. */
  topUpUrl: string;
};

export const RECOVERY_TEMPLATE_FIELDS: readonly (keyof RecoveryNoticeFields)[] = [
  'merchantName',
  'planName',
  'amount',
  'currency',
  'subscriptionId',
  'customerEmail',
  'status',
  'graceDeadline',
  'topUpUrl',
];

/**
 * The customer notice: every `{field}` of RECOVERY_TEMPLATE_FIELDS replaced (other braces left as
 * written), and the top-up link appended on its own paragraph when the template does not place it.
 */
export function renderRecoveryNotice(template: string, fields: RecoveryNoticeFields): string {
  const text = template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    (RECOVERY_TEMPLATE_FIELDS as readonly string[]).includes(name) ? fields[name as keyof RecoveryNoticeFields] : whole,
  );
  return template.includes('{topUpUrl}') ? text : `${text}\n\n${fields.topUpUrl}`;
}
