-- A pending refund can be cancelled: it releases the amount it reserved.
alter table refunds drop constraint refunds_status_check;
alter table refunds add constraint refunds_status_check check (status in ('pending', 'succeeded', 'failed', 'cancelled'));
alter table refunds add column cancelled_at timestamptz;
