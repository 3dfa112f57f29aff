// Request and response shapes of a subscription's plan change (issue 40, item 1).
import { z } from 'zod';
import { idParam, timestamp } from '../http/schemas.js';

export const PLAN_CHANGE_STATUSES = ['scheduled', 'requires_customer_action', 'applied', 'cancelled'] as const;
export const PRORATION_BEHAVIORS = ['create_prorations', 'always_invoice', 'none'] as const;

export const planChange = z
  .object({
    id: z.string().describe('The plan change id (prefix `spc_`).'),
    object: z.literal('subscription_plan_change'),
    fromPlanId: z.string(),
    planId: z.string().describe('The plan the subscription moves to.'),
    fromAmount: z.string().describe('What a period charged before the change (before a discount), base units.'),
    amount: z.string().describe("The new plan's amount per period, base units."),
    status: z
      .enum(PLAN_CHANGE_STATUSES)
      .describe(
        '`applied`: in effect (an upgrade within the authorised amount, or any change in a trial, at once; a downgrade at its period start); `scheduled`: a downgrade waiting for the end of the period; `requires_customer_action`: more than the customer authorised on chain per period, nothing changes or is charged until they authorise it; `cancelled`.',
      ),
    prorationBehavior: z.enum(['create_prorations', 'none']),
    prorationAmount: z
      .string()
      .describe(
        'What the upgrade adds to the next period’s charge for the rest of the period in progress: floor((amount - fromAmount) * remainingSeconds / periodSeconds), limited so that charge stays within the authorised amount; "0" for `none`, a downgrade or a change in a trial.',
      ),
    effectiveAt: timestamp.nullable().describe('When the new plan takes effect; null while the customer’s authorisation is awaited.'),
    hostedUrl: z
      .string()
      .nullable()
      .describe(
        'For a change that `requires_customer_action`: the hosted page where the subscribing wallet signs a new enrolment for `amount` per period, which replaces the current one from the next period. Unguessable, good for this change only, until it is applied or cancelled; null otherwise.',
      ),
    createdAt: timestamp,
  })
  .meta({ id: 'SubscriptionPlanChange' });

export const pendingPlanChange = planChange
  .nullable()
  .describe(
    'A change that has not taken effect: a downgrade `scheduled` for the end of the period, or an upgrade that `requires_customer_action`. Cancel it by changing the plan back to `planId` of the subscription.',
  );

export const changePlanBody = z
  .object({
    planId: idParam('plan').describe(
      'A plan of the same merchant and mode, with the same interval, offered on the subscription’s chain. The current plan cancels a pending change.',
    ),
    prorationBehavior: z
      .enum(PRORATION_BEHAVIORS)
      .default('create_prorations')
      .describe(
        '`create_prorations` (default): an upgrade adds the prorated difference for the rest of the period to the next charge; `none`: no proration. `always_invoice` is refused: the contract pulls once per period, so nothing can be charged before the next period starts.',
      ),
  })
  .strict();

export type PlanChange = z.infer<typeof planChange>;
export type ChangePlanBody = z.infer<typeof changePlanBody>;
