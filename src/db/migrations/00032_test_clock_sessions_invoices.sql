-- Test clocks govern payment sessions and invoices too (issue #30): a session or invoice created
-- with `testClock` has its expiry or due date on the clock's time, and its workflow waits on the
-- clock. Null: wall time, as every object before clocks.
alter table payment_sessions add column test_clock_id text references test_clocks (id);
alter table invoices add column test_clock_id text references test_clocks (id);
create index payment_sessions_test_clock on payment_sessions (test_clock_id) where test_clock_id is not null;
create index invoices_test_clock on invoices (test_clock_id) where test_clock_id is not null;
