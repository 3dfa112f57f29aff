-- A session's relay submissions, newest first: the checkout session's lastPaymentError reads the
-- latest one, failed ones included (relay_submissions_one_per_session leaves those out).
create index relay_submissions_by_session on relay_submissions (payment_session_id, created_at desc)
  where payment_session_id is not null;
