// obsoleteEnrolmentCancelWorkflow (id `<plan change id>_cancel_<on-chain id>`): the operator's on-chain cancel of an
// enrolment a customer's reauthorisation made obsolete (activities/subscription-reauthorisations.ts), retried until
// it lands. Its own small workflow: the subscription's workflow holds no on-chain id, so it needs no new command.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { EnrolmentToCancel } from '../activities/subscription-reauthorisations.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { CHAIN_ACTIVITY } from './options.js';

const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);

export const obsoleteEnrolmentCancelWorkflowId = (planChangeId: string, onChainId: string) => `${planChangeId}_cancel_${onChainId}`;

export async function obsoleteEnrolmentCancelWorkflow(input: EnrolmentToCancel): Promise<'cancelled_on_chain' | 'refused_on_chain'> {
  try {
    await chain.cancelObsoleteEnrolment(input);
    return 'cancelled_on_chain';
  } catch (error) {
    if (permanentFailureType(error) === undefined) throw error;
    return 'refused_on_chain';
  }
}
