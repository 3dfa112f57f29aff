-- A chain of its own per test clock (issue 39): with TEST_CLOCK_CHAINS=fork a clock is created with an
-- anvil forked from the test chain; its chain id and RPC URL are kept here so the worker's activities (and
-- later the indexer and the charges of the clock's subscriptions) reach it. Null: the clock moves the test
-- chain itself, as every clock before.
alter table test_clocks add column chain_id bigint, add column rpc_url text;
-- Two live clocks never share a chain id.
create unique index test_clocks_live_chain_id on test_clocks (chain_id) where chain_id is not null and status <> 'deleted';
