-- Max summaries read the hourly rollup (issue 41, item 6; docs/decisions.md "Meters page, usage-event retention and
-- speed"). At 10 million stored events a customer with a third of a million events in a month took 240 to 460 ms
-- (p95) to summarise by scanning its events; the rollup holds at most 744 rows for that month.
--
--   meter_usage_hourly.quantity_max   the largest value among the hour's uncancelled events (null when none, and
--                                     for count and unique_count meters): raised by the insert statement
--                                     (greatest), recomputed from the hour's events when one is cancelled
alter table meter_usage_hourly add column quantity_max numeric(38, 12);

update meter_usage_hourly h
set quantity_max = e.quantity_max
from (
  select meter_id, customer_id, date_trunc('hour', event_time, 'UTC') as hour_start, max(quantity) as quantity_max
  from meter_events where cancelled_at is null group by 1, 2, 3
) e
where h.meter_id = e.meter_id and h.customer_id = e.customer_id and h.hour_start = e.hour_start;
