// All activities of the worker, merged from one factory per domain.
import { createEmailDispatcher, type EmailDispatcher } from '../src/email/service.js';
import { createEventDispatcher, type EventDispatcher } from '../src/events/dispatch.js';
import { unconfiguredSubscriptionChain, type SubscriptionChain } from '../src/subscriptions/chain.js';
import { createAgentActivities } from './agents.js';
import { createAgentRecoveryActivities } from './agent-recovery.js';
import { createAgentDailyActivities } from './agent-daily.js';
import { createAgentYieldActivities } from './agent-yield.js';
import { createEmailActivities, type EmailActivityDeps } from './email.js';
import { createEventActivities, type EventActivityDeps } from './events.js';
import { createRelayActivities, type RelayActivityDeps } from './relay.js';
import { createPaymentActivities, type PaymentActivityDeps } from './payments.js';
import { createDepositActivities } from './deposits.js';
import { createRefundActivities } from './refunds.js';
import { createSubscriptionRenewalActivities } from './subscription-renewals.js';
import { createSubscriptionActivities } from './subscriptions.js';
import { createSubscriptionChargeActivities } from './subscription-charge.js';
import { createSubscriptionPlanChangeActivities } from './subscription-plan-changes.js';
import { createSubscriptionReauthorisationActivities } from './subscription-reauthorisations.js';
import { createTestClockActivities } from './test-clocks.js';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks.js';
import { createUsageCloser } from '../src/billing-meters/period-close.js';
import { createThresholdBiller } from '../src/billing-meters/usage-threshold.js';

export type ActivityDeps = EventActivityDeps &
  EmailActivityDeps &
  WebhookActivityDeps &
  RelayActivityDeps &
  PaymentActivityDeps & {
    /** The chain port of subscription charges; without it chain activities fail and retry. */
    subscriptionChain?: SubscriptionChain;
    onDispatchError?: (error: unknown, eventId: string) => void;
    /** Overrides how recorded events are dispatched (default: start their dispatch workflow). */
    events?: EventDispatcher;
    /** Overrides how queued emails are started (default: start their delivery workflow; the outbox sweep catches misses). */
    emails?: EmailDispatcher;
    /** SECRETS_ENCRYPTION_KEY: opens the agent wallet keys (the development key when absent). */
    secretsEncryptionKey?: Buffer;
  };

export function createActivities(deps: ActivityDeps) {
  const events = deps.events ?? createEventDispatcher(deps.temporal, deps.taskQueue, deps.onDispatchError ?? (() => {}));
  const emails = deps.emails ?? createEmailDispatcher(deps.temporal, deps.sql, deps.taskQueue, () => {});
  const subscriptionChain = deps.subscriptionChain ?? unconfiguredSubscriptionChain;
  const publicBaseUrl = deps.publicBaseUrl ?? 'http://localhost:3000';
  // A metered subscription's period close (issue 41): its open invoice needs the chains, the page base and Temporal.
  const usageCloser = createUsageCloser({
    sql: deps.sql,
    events,
    chain: deps.chain,
    publicBaseUrl,
    taskQueue: deps.taskQueue,
    temporal: deps.temporal,
  });
  const thresholdBiller = createThresholdBiller({ sql: deps.sql, events, usageCloser, publicBaseUrl, temporal: deps.temporal });
  const subscriptions = createSubscriptionActivities({ sql: deps.sql, events, subscriptionChain, usageCloser, thresholdBiller });
  const recovery = createAgentRecoveryActivities({
    sql: deps.sql,
    events,
    emails,
    publicBaseUrl,
  });
  const renewals = createSubscriptionRenewalActivities({
    sql: deps.sql,
    subscriptionChain,
    emails,
    publicBaseUrl,
  });
  return {
    ...createEventActivities({ ...deps, emails, publicBaseUrl }),
    ...createEmailActivities(deps),
    ...createWebhookActivities(deps),
    ...createRelayActivities(deps),
    ...createPaymentActivities(deps),
    ...createDepositActivities({ sql: deps.sql, events, chain: deps.chain, publicBaseUrl }),
    ...createRefundActivities({ sql: deps.sql, events, chain: deps.chain }),
    ...subscriptions,
    ...createSubscriptionChargeActivities({ subscriptions, renewals, recovery }),
    ...createSubscriptionPlanChangeActivities({ sql: deps.sql, events }),
    ...createSubscriptionReauthorisationActivities({ sql: deps.sql, subscriptionChain }),
    ...createAgentActivities({ sql: deps.sql, events, chain: deps.chain, secretsEncryptionKey: deps.secretsEncryptionKey }),
    ...createAgentDailyActivities({ sql: deps.sql, events, emails }),
    ...createAgentYieldActivities({ sql: deps.sql, events, chain: deps.chain, secretsEncryptionKey: deps.secretsEncryptionKey }),
    ...recovery,
    ...createTestClockActivities({ sql: deps.sql, chain: deps.chain }),
    ...renewals,
  };
}

export type Activities = ReturnType<typeof createActivities>;
