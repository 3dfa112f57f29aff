-- Cancel at period end and trial rules (issue 40, item 3; docs/decisions.md "Cancel at period end and trial rules").
--
--   subscriptions.cancel_at_period_end   set by the merchant (or, later, the customer in the portal); the charge of
--                                        the next period finds it and cancels instead of charging (on chain too)
--   subscriptions.cancel_at              when that happens: the start of the next period when the cancel was asked
--   subscriptions.cancellation_*         who asked to cancel (now or at period end), why (free text) and a feedback
--                                        code; cleared when a scheduled cancel is undone
--   subscriptions.trial_will_end_noticed_at  when subscription.trial_will_end was recorded (once per subscription)
--   subscription_plans.trial_end_behavior  what a refused first charge after a trial does: dunning (as before),
--                                        cancel, or pause
alter table subscriptions
  add column cancel_at_period_end boolean not null default false,
  add column cancel_at timestamptz,
  add column cancellation_requested_by text check (cancellation_requested_by in ('merchant', 'subscriber')),
  add column cancellation_reason text,
  add column trial_will_end_noticed_at timestamptz,
  add column cancellation_feedback text check (
    cancellation_feedback in ('customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused')
  ),
  add constraint subscriptions_cancel_at_period_end_has_date check (not cancel_at_period_end or cancel_at is not null);

alter table subscription_plans
  add column trial_end_behavior text not null default 'dunning' check (trial_end_behavior in ('dunning', 'cancel', 'pause'));
