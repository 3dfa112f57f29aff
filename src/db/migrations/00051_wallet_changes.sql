-- The customer moves a subscription to another wallet from the portal (issue 40, item 4; docs/decisions.md
-- "Re-authorising from another wallet"), and invoices name their customer (issue 40, item 5).
--
--   subscription_reauthorisations  now also holds wallet changes: the same hosted link, binding and application as an
--                                  upgrade above the cap, but the replacement enrolment is signed by `new_subscriber_address`
--                                  (named when the customer started the change) for the subscription's current cap
--     id                           the row's own id: the plan change's id (`spc_...`) for an upgrade, as before, or the
--                                  wallet change's (`swc_...`)
--     kind                         `plan_change` | `wallet_change`
--     plan_change_id               the upgrade's plan change; null for a wallet change
--     new_subscriber_address       the wallet a wallet change moves to (lower case); null for an upgrade (the subscriber signs)
--     previous_subscriber_address  the subscriber a wallet change moved from (set when applied)
alter table subscription_reauthorisations add column id text;
update subscription_reauthorisations set id = plan_change_id;
alter table subscription_reauthorisations drop constraint subscription_reauthorisations_pkey;
alter table subscription_reauthorisations alter column id set not null;
alter table subscription_reauthorisations add primary key (id);
alter table subscription_reauthorisations alter column plan_change_id drop not null;
create unique index subscription_reauthorisations_plan_change on subscription_reauthorisations (plan_change_id) where plan_change_id is not null;
alter table subscription_reauthorisations add column kind text not null default 'plan_change' check (kind in ('plan_change', 'wallet_change'));
alter table subscription_reauthorisations add column new_subscriber_address text check (new_subscriber_address ~ '^0x[0-9a-f]{40}$');
alter table subscription_reauthorisations add column previous_subscriber_address text;
alter table subscription_reauthorisations add constraint subscription_reauthorisations_kind_fields check (
  (kind = 'plan_change' and plan_change_id is not null and new_subscriber_address is null)
  or (kind = 'wallet_change' and plan_change_id is null and new_subscriber_address is not null)
);
-- At most one wallet change waits per subscription: starting another cancels the earlier one.
create unique index subscription_reauthorisations_one_wallet_change on subscription_reauthorisations (subscription_id)
  where kind = 'wallet_change' and status = 'pending';

-- invoices.customer_id: the merchant's customer an invoice is for, when it was created with `customerId` (issue 40,
-- item 5): the portal lists a customer's invoices by it (and, for invoices without one, by the customer's email).
alter table invoices add column customer_id text references customers (id);
create index invoices_customer on invoices (customer_id) where customer_id is not null;
