// refundWorkflow: one per refund sent from the merchant's refund allowance (workflow id from the
// refund id, started in the transaction that creates the refund through the outbox of workflow
// starts). The operator sends transferFrom(payout wallet -> customer) through the one transaction
// sender under the purpose `refund:<id>`, so a retried or restarted step follows the transaction
// already recorded instead of sending another; then it follows it to the mode's confirmations. A
// refusal (the allowance or balance fell short since the refund was created, a blacklist, a pause)
// or a revert fails the refund for good, releasing what it reserved; a dropped transaction is sent again.
// BusinessStatus (workflows/business-status.ts): `processing` from the start, then succeeded or failed.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { publishBusinessStatus } from './business-status.js';
import { CHAIN_ACTIVITY, RELAY_FOLLOW_ACTIVITY } from './options.js';

const { sendRefund } = proxyActivities<Activities>(CHAIN_ACTIVITY);
const { followRefund } = proxyActivities<Activities>(RELAY_FOLLOW_ACTIVITY);

export type RefundInput = { refundId: string };
export type RefundOutcome = 'succeeded' | 'failed' | 'not_processing';

export const refundWorkflowId = (refundId: string): string => `refund_${refundId}`;

export async function refundWorkflow({ refundId }: RefundInput): Promise<RefundOutcome> {
  try {
    const outcome = await sendAndFollow(refundId);
    if (outcome !== 'not_processing') publishBusinessStatus(outcome);
    return outcome;
  } catch (error) {
    // A refund that does not exist: nothing was or will be sent.
    if (permanentFailureType(error) === undefined) throw error;
    return 'not_processing';
  }
}

async function sendAndFollow(refundId: string): Promise<RefundOutcome> {
  for (;;) {
    const sent = await sendRefund(refundId);
    if (sent !== 'sent') return sent;
    const outcome = await followRefund(refundId);
    if (outcome !== 'dropped') return outcome;
    // Its nonce went to another transaction: nothing moved; send it again.
    await sleep('2 seconds');
  }
}
