-- The seed document's three staging rows. INSERT OVERWRITE (not INSERT) keeps this script
-- rerun-safe: running it twice leaves three rows, not six.
INSERT OVERWRITE sales.staging_orders VALUES
  (1, 10, 50.00, DATE '2026-10-03'),
  (2, 11, 20.00, DATE '2026-10-03'),
  (3, 12, 75.00, DATE '2026-10-04');
