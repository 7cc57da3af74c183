-- The seed document's three customer rows: customer 10 twice (free at 09:00, then pro at 12:00),
-- customer 11 once. INSERT OVERWRITE (not INSERT) keeps this script rerun-safe. The session time
-- zone is UTC, so these TIMESTAMP_LTZ values are the seed's '2026-10-03 09:00+00' and so on.
INSERT OVERWRITE sales.staging_customer VALUES
  (10, 'free', CAST(TIMESTAMP '2026-10-03 09:00:00' AS TIMESTAMP_LTZ(6))),
  (10, 'pro',  CAST(TIMESTAMP '2026-10-03 12:00:00' AS TIMESTAMP_LTZ(6))),
  (11, 'free', CAST(TIMESTAMP '2026-10-03 10:00:00' AS TIMESTAMP_LTZ(6)));
