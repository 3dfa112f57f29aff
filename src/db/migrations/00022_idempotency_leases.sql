-- Idempotency keys are held under a lease: the request that claimed a key
-- writes its response only while its token is still the key's, so a retry
-- that took the key over after the lease (its holder died) is the only one
-- whose effect commits.
alter table idempotency_keys add column lease_token uuid;
