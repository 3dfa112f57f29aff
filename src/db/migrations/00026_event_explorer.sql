-- Issue 28: events are listed and filtered by the object they are about, and a
-- delivery attempt keeps the exact request body it sent.
--
-- `object_id` is the id of `data.object` (the object the event is about);
-- `related_ids` also holds the ids the payload names as related (the
-- subscription of a charge, the session of an invoice or of a failed relayed
-- payment, ...), so `GET /v1/events?objectId=sub_...` finds a subscription's
-- charges too. Both are generated from `data`, which backfills every existing
-- row and keeps every writer (the outbox and the test events) unchanged. A test
-- event (`data.test` = true) is about no real object.
alter table events
  add column object_id text generated always as (
    case when data->>'test' = 'true' then null else data->'object'->>'id' end
  ) stored,
  add column related_ids text[] generated always as (
    case when data->>'test' = 'true' then '{}'::text[] else array_remove(array[
      data->'object'->>'id',
      data->'subscription'->>'id',
      data->>'paymentSessionId',
      data->'object'->>'subscriptionId',
      data->'object'->>'sessionId',
      data->'object'->>'paymentSessionId',
      data->'object'->>'invoiceId',
      data->'object'->>'customerId'
    ], null) end
  ) stored;

create index events_merchant_type on events (merchant_id, livemode, type, id desc);
create index events_related_ids on events using gin (related_ids);

-- The body each attempt sent (the exact signed bytes, as UTF-8 JSON; bounded by
-- the sender, see src/webhooks/payload.ts). Null for attempts recorded before
-- this column existed: their body is rebuilt from the event on read.
alter table webhook_deliveries add column request_body text;
