// subscriptionAllowanceRenewalWorkflow: submits one renewal permit the subscriber
// signed on the hosted renewal page (workflow id = <subscription id>_renew_<permit nonce>,
// allowanceRenewalWorkflowId). The chain activity is retried until the permit
// lands or the token refuses it; the Approval log then reaches the subscription
// workflow through the indexer's allowance hook (an at_risk charge retries at once).
// BusinessStatus (workflows/business-status.ts) is the checkout_renewal's: pending from the start,
// then confirmed or failed.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { AllowancePermitResult } from '../src/subscriptions/chain.js';
import { publishBusinessStatus } from './business-status.js';
import { CHAIN_ACTIVITY } from './options.js';

const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);

export type AllowanceRenewalInput = { subscriptionId: string; value: string; deadline: string; signature: string };

/** One run per signed permit: a page reload or a second click submits nothing twice. */
export const allowanceRenewalWorkflowId = (subscriptionId: string, permitNonce: string | bigint): string =>
  `${subscriptionId}_renew_${permitNonce.toString()}`;

export async function subscriptionAllowanceRenewalWorkflow(input: AllowanceRenewalInput): Promise<AllowancePermitResult> {
  const result = await chain.submitAllowancePermit(input);
  publishBusinessStatus(result.ok ? 'confirmed' : 'failed');
  return result;
}
