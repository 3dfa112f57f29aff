-- Subscriptions on several chains per mode (issue 39). A charge carries the chain it was sent on: its
-- subscription's (a charge never goes to another chain). A plan may be offered on some of its mode's
-- chains, in the order the hosted enrolment page offers them (null: every chain of the mode, including
-- chains added later).
-- The charge repository fills it from the subscription at insert; a row written another way (fixtures)
-- reads its subscription's.
alter table subscription_charges add column chain_id bigint;
update subscription_charges c set chain_id = s.chain_id from subscriptions s where s.id = c.subscription_id;
alter table subscription_plans add column chain_ids bigint[];
