-- Memo and search attributes of a queued workflow start (src/temporal/workflow-tags.ts), so a
-- start the outbox sweep performs later carries the same ones as a start made at once.
alter table workflow_starts add column tags jsonb;
