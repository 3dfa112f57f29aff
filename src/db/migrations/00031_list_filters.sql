-- Indexes for the list filters (issue 28): the created-at windows of invoices and refunds (the other
-- lists have one from analytics), and the search box's lookups that would otherwise scan a merchant's
-- whole table: payer and transaction hash of payment sessions, subscriber wallets, customer and
-- invoice email prefixes (text_pattern_ops serves `like 'prefix%'`), refund transactions and wallets.
create index invoices_merchant_created on invoices (merchant_id, livemode, created_at);
create index refunds_merchant_created on refunds (merchant_id, livemode, created_at);
create index payment_sessions_payer on payment_sessions (merchant_id, livemode, lower(payer)) where payer is not null;
create index payment_sessions_transaction_hash on payment_sessions (transaction_hash) where transaction_hash is not null;
create index subscriptions_subscriber on subscriptions (merchant_id, livemode, lower(subscriber_address));
create index subscriptions_created_tx_hash on subscriptions (created_tx_hash) where created_tx_hash is not null;
create index customers_email_prefix on customers (merchant_id, livemode, lower(email) text_pattern_ops) where email is not null;
create index invoices_customer_email_prefix on invoices (merchant_id, livemode, lower(customer_email) text_pattern_ops)
  where customer_email is not null;
create index refunds_transaction_lookup on refunds (transaction_hash) where transaction_hash is not null;
create index refunds_to_address on refunds (merchant_id, livemode, lower(to_address));
