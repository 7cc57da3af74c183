package dev.floe.catalog.report;

import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.snapshot.Rollback;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * A realistic table for the rendered report (and docs/report.png): three weeks of day slices of
 * {@code sales.fact_orders} with a 14-day late-data window, in all four states, one day never
 * loaded, a sealed day with late rows reported, a day whose late rows are unknown, a rollback of a
 * bad run, a revert, a tag and an open audit branch.
 */
public final class ReportScenario {
  public static final String TABLE = "sales.fact_orders";
  private static final String JOB = "fact_orders_daily";
  private static int run = 0;

  private ReportScenario() {}

  /**
   * Builds the tables; the last slice is {@code lastDay}.
   *
   * @return the as-of instant the scenario is meant to be read at (the morning after lastDay)
   */
  public static Instant build(Catalog catalog, LocalDate lastDay) {
    Table fact = LineageCommits.create(catalog, TABLE, ReportTest.window("P14D", "report"));
    Table staging = LineageCommits.create(catalog, "sales.staging_orders", Map.of());
    Schema noDate = new Schema(Types.NestedField.required(1, "customer_id", Types.LongType.get()));
    Table customers =
        catalog.createTable(
            TableIdentifier.of("sales", "customers"), noDate, PartitionSpec.unpartitioned());
    dev.floe.catalog.testing.TableRows.append(
        customers, dev.floe.catalog.testing.TableRows.row(customers, Map.of("customer_id", 1L)));

    for (int back = 20; back >= 0; back--) {
      LineageCommits.append(staging, day(lastDay, back), 3 + back % 4);
    }
    for (int back = 20; back >= 0; back--) {
      if (back == 11) {
        continue; // a day the scheduler never ran: "not loaded"
      }
      List<Table> sources = back == 6 ? List.of(staging, customers) : List.of(staging);
      LineageCommits.load(fact, day(lastDay, back), runId(), JOB, 3 + back % 4, null, sources);
    }
    // Reruns: two days reloaded after a fix upstream.
    LineageCommits.load(fact, day(lastDay, 9), runId(), JOB, staging, 5);
    LineageCommits.load(fact, day(lastDay, 2), runId(), JOB, staging, 4);
    // A reload with a bug, undone by `floe revert`: the slice is back to one load.
    String buggy = runId();
    LineageCommits.load(fact, day(lastDay, 3), buggy, JOB, staging, 0);
    LineageCommits.revert(fact, day(lastDay, 3), buggy, 5);
    // A bad rerun of the last day, rolled back (its snapshot stays, tagged, off main).
    String bad = runId();
    LineageCommits.load(fact, day(lastDay, 0), bad, JOB, staging, 0);
    Rollback.of(fact, TABLE).beforeRun(bad).commit();
    fact.refresh();
    fact.manageSnapshots().createTag("month-close", fact.currentSnapshot().snapshotId()).commit();
    // A rerun under write-audit-publish, waiting on its audit branch.
    String audited = runId();
    fact.manageSnapshots()
        .createBranch(AuditBranch.of(audited), fact.currentSnapshot().snapshotId())
        .commit();
    LineageCommits.load(fact, day(lastDay, 1), audited, JOB, staging, 4, AuditBranch.of(audited));
    // Late rows: two open days (pending), one sealed day (reported only).
    LineageCommits.append(staging, day(lastDay, 4), 3);
    LineageCommits.append(staging, day(lastDay, 1), 1);
    LineageCommits.append(staging, day(lastDay, 16), 2);
    return lastDay.plusDays(1).atTime(6, 0).toInstant(ZoneOffset.UTC);
  }

  private static String day(LocalDate lastDay, int back) {
    return lastDay.minusDays(back).toString();
  }

  private static String runId() {
    run++;
    return String.format("run-%04d-%s", run, Integer.toHexString(0x5f3a1 * run).substring(0, 4));
  }
}
