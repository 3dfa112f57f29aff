-- Plans can be renamed and archived (issue 28). An archived plan takes no new
-- enrolments; subscriptions already on it keep running on their signed terms.
alter table subscription_plans
  add column archived_at timestamptz,
  add column updated_at timestamptz not null default now();
