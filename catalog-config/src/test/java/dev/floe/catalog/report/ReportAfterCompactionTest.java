package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Review: `floe maintain --compact` of a slice must not change what the report says of it. */
class ReportAfterCompactionTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aCompactionNeitherCountsAsAReloadNorHidesPendingLateRows() throws IOException {
    Table fact =
        LineageCommits.create(catalog.catalog(), "s.fact", ReportTest.window("P3D", "report"));
    Table staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    LineageCommits.append(staging, "2026-10-03", 2);
    LineageCommits.load(fact, "2026-10-03", "r1", "fact_daily", staging, 2);
    LineageCommits.append(staging, "2026-10-03", 2); // late rows for the slice
    Instant asOf = Instant.parse("2026-10-04T06:00:00Z");
    SliceStatus before = Report.of(catalog.catalog(), "s.fact").asOf(asOf).build().slices().get(0);
    assertThat(before.state()).isEqualTo(SliceState.LATE_DATA_PENDING);

    compact(fact, LineageCommits.day("2026-10-03"));
    SliceStatus after = Report.of(catalog.catalog(), "s.fact").asOf(asOf).build().slices().get(0);

    // Counted as a load, the compaction commit (floe.mode=compact, no source-snapshots) would make
    // the slice "reloaded" and its late rows would be computed from no source at all.
    assertThat(after.state()).isEqualTo(SliceState.LATE_DATA_PENDING);
    assertThat(after.knownLateRows()).isEqualTo(2);
    assertThat(after.loads()).hasSize(1);
  }

  /** What CompactionCommitter commits: one RewriteFiles of the slice, lineage mode "compact". */
  private static void compact(Table table, Slice slice) throws IOException {
    List<DataFile> inputs = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(slice.toExpression()).planFiles()) {
      tasks.forEach(t -> inputs.add(t.file()));
    }
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> read =
        IcebergGenerics.read(table).where(slice.toExpression()).build()) {
      read.forEach(r -> rows.add(r.copy()));
    }
    RewriteFiles rewrite = table.newRewrite();
    inputs.forEach(rewrite::deleteFile);
    rewrite.addFile(TableRows.write(table, rows.toArray(new Record[0])));
    new Lineage(
            "key-compact",
            "compact-run",
            "floe-maintain-compact",
            WriteMode.COMPACT_LINEAGE_MODE,
            slice.label(),
            "test",
            rows.size(),
            ContentHash.empty().encode(),
            Map.of(),
            null)
        .toSummary()
        .forEach(rewrite::set);
    rewrite.commit();
    table.refresh();
  }
}
