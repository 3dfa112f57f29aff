-- Token refusals named on refunds and agent jobs (issue 25). A refund whose transfer the token
-- refused (blacklist, pause, funds) is `failed` with the refusal code of src/chain/refusals.ts and a
-- readable reason; an agent job whose escrow call the token refused keeps the code beside its
-- failure_reason. `if not exists`: the refund execution work adds the same refund columns, and
-- whichever migration runs first creates them.
alter table refunds add column if not exists failure_code text;
alter table refunds add column if not exists failure_reason text;
alter table refunds add column if not exists failed_at timestamptz;
alter table agent_jobs add column if not exists failure_code text;
