// Every workflow the worker runs.
export { dispatchEventWorkflow } from './event-dispatch.js';
export { eventDispatcherWorkflow } from './event-dispatcher.js';
export { outboxSweepWorkflow } from './outbox-sweep.js';
export { deliverEmailWorkflow } from './email-delivery.js';
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { relaySubmissionWorkflow, relaySweepWorkflow } from './relay-submission.js';
export { subscriptionWorkflow } from './subscription.js';
export { subscriptionOnChainCancelWorkflow } from './subscription-cancel.js';
export { obsoleteEnrolmentCancelWorkflow } from './subscription-reauthorisation.js';
export { subscriptionRecoveryWorkflow } from './subscription-recovery.js';
export { paymentSessionWorkflow } from './payment-session.js';
export { depositSweepWorkflow } from './deposit-sweep.js';
export { invoiceWorkflow, invoiceSweepWorkflow } from './invoice.js';
export { subscriptionAllowanceRenewalWorkflow } from './subscription-renewal.js';
export { agentJobWorkflow } from './agent-job.js';
export { agentDailyWorkflow } from './agent-daily.js';
export { refundWorkflow } from './refund.js';
export { testClockWorkflow } from './test-clock.js';
