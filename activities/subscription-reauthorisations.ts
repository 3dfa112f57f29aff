// The operator's on-chain cancel of an enrolment a customer's reauthorisation made obsolete: the old one once the
// replacement applied (so the old authorisation can never be charged again), or a new one that could not be applied
// (src/subscription-plan-changes/reauthorisation.ts). Idempotent: a cancelled enrolment is left as it is.
import type { Sql } from '../src/db/client.js';
import type { SubscriptionChain } from '../src/subscriptions/chain.js';
import { markReplacedCancelled } from '../src/subscription-plan-changes/reauthorisation-repo.js';
import { heartbeating } from './subscriptions.js';

export type EnrolmentToCancel = {
  planChangeId: string;
  livemode: boolean;
  chainId: string;
  contractAddress: string;
  onChainId: string;
  /** The enrolment the reauthorisation replaced (its cancel is recorded on the reauthorisation), or an unused new one. */
  replaced: boolean;
};

export function createSubscriptionReauthorisationActivities({
  sql,
  subscriptionChain,
}: {
  sql: Sql;
  subscriptionChain: SubscriptionChain;
}) {
  return {
    async cancelObsoleteEnrolment(input: EnrolmentToCancel): Promise<{ txHash: string | null }> {
      const result = await heartbeating(() =>
        subscriptionChain.cancel({
          livemode: input.livemode,
          chainId: input.chainId,
          onChainId: input.onChainId,
          contractAddress: input.contractAddress,
        }),
      );
      if (input.replaced) await markReplacedCancelled(sql, input.planChangeId);
      return { txHash: result.txHash };
    },
  };
}
