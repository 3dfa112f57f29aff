-- Every webhook attempt is recorded before its request is sent (status
-- 'sending') and completed after. A send cut short by a crash is marked
-- 'interrupted' when its attempt runs again, so one attempt may have several
-- records, one per send, numbered by `send`.
alter table webhook_deliveries drop constraint webhook_deliveries_status_check;
alter table webhook_deliveries add constraint webhook_deliveries_status_check
  check (status in ('sending', 'interrupted', 'succeeded', 'failed', 'permanently_failed'));
alter table webhook_deliveries add column send integer not null default 1 check (send >= 1);
alter table webhook_deliveries drop constraint webhook_deliveries_run_id_attempt_key;
alter table webhook_deliveries add constraint webhook_deliveries_run_attempt_send unique (run_id, attempt, send);
