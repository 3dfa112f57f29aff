-- Refund recipients (issue 36): a refund goes to someone who can be shown to be the payer, and says
-- who that is (`recipient_source`): the relayed payment's signer, the sender of the deposits that
-- paid (never a later deposit's), a late deposit's own sender (`deposit_id`), an address the
-- merchant named, or one the customer gave on the hosted refund-claim page. Until the customer
-- gives it, the refund is `requires_action` with no recipient and holds its amount; the claim link's
-- token is kept (the refund object shows the link on every read, as a hosted invoice link is).
alter table refunds drop constraint refunds_status_check;
alter table refunds add constraint refunds_status_check
  check (status in ('requires_action', 'pending', 'processing', 'succeeded', 'failed', 'cancelled'));
alter table refunds alter column to_address drop not null;
alter table refunds add column recipient_source text
  check (recipient_source in ('payer_signer', 'deposit_sender', 'merchant_specified', 'customer_claimed'));
alter table refunds add column deposit_id text references deposits (id);
alter table refunds add column claim_token text unique;
alter table refunds add column claimed_at timestamptz;
-- Refunds made before: the relayed payer, else the (latest) deposit sender the old rule chose.
update refunds r set recipient_source = case when s.payer is not null then 'payer_signer' else 'deposit_sender' end
  from payment_sessions s where s.id = r.payment_session_id;
-- Only a refund waiting for its claim (or cancelled while waiting) has no recipient.
alter table refunds add constraint refunds_recipient check (
  to_address is not null or (claim_token is not null and status in ('requires_action', 'cancelled')));
create index refunds_deposit on refunds (deposit_id) where deposit_id is not null;
