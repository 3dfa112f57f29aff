// The API relay names no plan, but the indexer records an enrolment only for a plan of the merchant
// offered on the chain it lands on (src/subscriptions/chain-events.ts, `no_matching_plan`). When the terms are
// a plan's that is offered on other chains only, the relay refuses the chain before the subscriber's permit
// and enrolment are spent on a subscription nobody would record or charge (issue 39). Terms no plan has at
// all stay the indexer's to ignore, as before.
import type { Db } from '../db/client.js';
import { InvalidRequestError } from '../errors.js';
import type { MerchantScope } from '../http/principal.js';
import type { PlanRow } from '../subscription-plans/repo.js';
import { chargeWindowSeconds, onChainPeriodSecondsV2 } from '../subscriptions/periods.js';
import { findPlansForTerms } from '../subscriptions/repo.js';

export type EnrolmentTerms = { amount: bigint; period: bigint; chargeWindow: bigint };

/** The plans whose v2 terms these are (amount, period and charge window), on any chain. */
export function plansWithTerms(plans: readonly PlanRow[], terms: EnrolmentTerms): PlanRow[] {
  return plans.filter(
    (plan) =>
      BigInt(plan.amount) === terms.amount &&
      BigInt(onChainPeriodSecondsV2(plan.interval, plan.intervalCount)) === terms.period &&
      BigInt(chargeWindowSeconds(plan.interval, plan.intervalCount)) === terms.chargeWindow,
  );
}

const offeredOn = (plan: PlanRow, chainId: number) => plan.chainIds === null || plan.chainIds.includes(chainId);

/** Refuses (`param: chainId`) terms of the merchant's plans none of which is offered on `chainId`. */
export async function refuseChainNoPlanOffers(
  db: Db,
  scope: MerchantScope,
  terms: EnrolmentTerms,
  chainId: number,
  chainNamed: boolean,
): Promise<void> {
  const plans = plansWithTerms(await findPlansForTerms(db, { ...scope, amount: terms.amount.toString(), chainId: undefined }), terms);
  if (plans.length === 0 || plans.some((plan) => offeredOn(plan, chainId))) return;
  const elsewhere = plans.map((plan) => `${plan.id} on ${plan.chainIds!.join(', ')}`).join('; ');
  const which = chainNamed ? `chain ${chainId}` : `chain ${chainId} (no chainId was named: the default)`;
  throw new InvalidRequestError(
    `No plan with these terms is offered on ${which}, so an enrolment there would never be recorded or charged: ${elsewhere}. Name one of those chains in chainId and sign for it.`,
    { param: 'chainId' },
  );
}
