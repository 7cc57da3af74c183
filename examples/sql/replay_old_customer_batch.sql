-- Replay an older batch: customer 10's 09:00 row alone, as a late or repeated delivery would
-- bring it. The merge must keep 10 at 'pro' (12:00), because 09:00 is not newer.
INSERT OVERWRITE sales.staging_customer VALUES
  (10, 'free', CAST(TIMESTAMP '2026-10-03 09:00:00' AS TIMESTAMP_LTZ(6)));
