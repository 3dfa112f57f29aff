-- Refunds that execute (issue 26). A refund covered by the merchant's refund allowance (the payout
-- wallet's USDC allowance for the operator) is sent by the operator with transferFrom in the refund
-- workflow: it is `processing` from creation until its transaction has the mode's confirmations, then
-- `succeeded`, or `failed` with the token's named refusal (which releases what it reserved). A refund
-- the allowance does not cover stays `pending` for the merchant's wallet (EIP-3009 or a transfer).
alter table refunds drop constraint refunds_status_check;
alter table refunds add constraint refunds_status_check check (status in ('pending', 'processing', 'succeeded', 'failed', 'cancelled'));
alter table refunds add column method text not null default 'wallet' check (method in ('wallet', 'allowance'));
alter table refunds add column failure_code text;
alter table refunds add column failure_reason text;
alter table refunds add column failed_at timestamptz;
alter table refunds add column block_number bigint;
-- A `wallet` refund the payout wallet signed as an EIP-3009 transferWithAuthorization: the relayer
-- submits it in the same refund workflow (processing until confirmed).
alter table refunds add column authorization_message jsonb;
alter table refunds add column authorization_signature text;
