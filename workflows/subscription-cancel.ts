// subscriptionOnChainCancelWorkflow (id `<subscriptionId>_onchain_cancel`): the on-chain cancel of a
// subscription whose own workflow has already ended, i.e. a `completed` subscription cancelled through
// the API (the spec calls only cancelled and lapsed terminal). The api starts it before it records
// the cancel, so a crash between the two loses nothing: it cancels on-chain once the read model says
// `cancelled`, and ends without doing anything if no cancel is recorded within ten minutes (the
// request failed before its transaction committed).
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { permanentFailureType } from '../src/temporal/failures.js';
import { CHAIN_ACTIVITY, DATABASE_ACTIVITY } from './options.js';

const db = proxyActivities<Activities>(DATABASE_ACTIVITY);
const chain = proxyActivities<Activities>(CHAIN_ACTIVITY);

const LOOK_EVERY_SECONDS = 5;
const GIVE_UP_AFTER_SECONDS = 600;

export const onChainCancelWorkflowId = (subscriptionId: string) => `${subscriptionId}_onchain_cancel`;

/** `refused_on_chain`: the contract refused the cancel for good, or the subscription does not exist (permanent failures). */
export async function subscriptionOnChainCancelWorkflow(input: {
  subscriptionId: string;
}): Promise<'cancelled_on_chain' | 'not_cancelled' | 'refused_on_chain'> {
  for (let waited = 0; ; waited += LOOK_EVERY_SECONDS) {
    try {
      if ((await db.readSubscriptionStatus(input)) === 'cancelled') {
        await chain.cancelSubscriptionOnChain(input);
        return 'cancelled_on_chain';
      }
    } catch (error) {
      if (permanentFailureType(error) === undefined) throw error;
      return 'refused_on_chain';
    }
    if (waited >= GIVE_UP_AFTER_SECONDS) return 'not_cancelled';
    await sleep(`${LOOK_EVERY_SECONDS} seconds`);
  }
}
