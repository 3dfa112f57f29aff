-- The customer portal's switch for moving a subscription to another wallet (issue 40, item 4): on by default, as the
-- move needs the new wallet's own signature and never charges more than the customer authorised.
alter table billing_portal_configurations add column wallet_changes boolean not null default true;
