package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.Map;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Review: publish after the operator rolled main back past the run's fork point. */
class PublishAfterRollbackTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @Test
  void publishingAfterMainWasRolledBackBehindTheForkDoesNotBringBackTheRolledBackRun() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    commitRun("r1", "2026-10-01", null, row(1, "2026-10-01"));
    long beforeBadRun = table.currentSnapshot().snapshotId();
    commitRun("bad", "2026-10-02", null, row(666, "2026-10-02"));
    // r2 is audited on its branch, forked from main while it held the bad run.
    commitRun("r2", "2026-10-03", "audit-r2", row(3, "2026-10-03"));
    // The operator rolls the bad run back on main.
    Rollback.of(table, "s.t").toSnapshot(beforeBadRun).commit();
    table.refresh();
    ContentHash day2AfterRollback = TableContent.hash(table, day("2026-10-02"));
    assertThat(day2AfterRollback.rows()).isZero();

    PublishPlan plan = Publish.of(table, "s.t").run("r2").commit();
    table.refresh();

    // Fast-forwarding main to the branch head, whose parent is the rolled-back snapshot, would
    // make the bad run's day 2 rows live again, silently undoing the operator's rollback. Only
    // the audited run is re-applied.
    assertThat(plan.method()).isEqualTo(PublishPlan.Method.CHERRY_PICK);
    assertThat(TableContent.hash(table, day("2026-10-02"))).isEqualTo(day2AfterRollback);
    assertThat(TableContent.hash(table, day("2026-10-03")).rows()).isEqualTo(1);
    assertThat(TableContent.hash(table).rows()).isEqualTo(2);
  }

  private void commitRun(String runId, String date, String branch, Record... rows) {
    Expression slice = day(date);
    OverwriteFiles overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(slice)
            .addFile(TableRows.write(table, rows))
            .set(LineageKeys.RUN_ID, runId)
            .set(LineageKeys.JOB, "job-" + runId)
            .set(LineageKeys.MODE, "overwrite")
            .set(LineageKeys.SLICE, "d=[" + date + "," + LocalDate.parse(date).plusDays(1) + ")");
    if (branch != null) {
      overwrite.toBranch(branch);
    }
    overwrite.commit();
    table.refresh();
  }

  private static Expression day(String date) {
    return Expressions.equal("d", (int) LocalDate.parse(date).toEpochDay());
  }

  private Record row(long id, String date) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(date)));
  }
}
