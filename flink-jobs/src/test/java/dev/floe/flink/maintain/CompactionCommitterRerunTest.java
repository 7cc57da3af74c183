package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.File;
import java.math.BigDecimal;
import java.net.URI;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review: a committer that Flink re-executes (task failover after the first slice was committed, or
 * a restart strategy on the session cluster) commits the same planned slice a second time.
 */
class CompactionCommitterRerunTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aReExecutedCommitterNeverDeletesTheFilesItsFirstAttemptCommitted() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    List<Record> rows = new ArrayList<>();
    AppendFiles append = fact.newAppend();
    for (int f = 0; f < 3; f++) {
      Record[] file = {row(fact, 2L * f + 1), row(fact, 2L * f + 2)};
      rows.addAll(Arrays.asList(file));
      append.appendFile(TableRows.write(fact, file));
    }
    append.commit();
    fact.refresh();
    ContentHash content = TableContent.hash(fact);

    List<String> values = List.of("2026-10-03");
    List<Slice> slices = CompactionSlices.resolve(SmallFiles.FACT, fact, values);
    long base = fact.currentSnapshot().snapshotId();
    List<PlannedSlice> planned = CompactionPlanner.plan(fact, base, values, slices, Long.MAX_VALUE);
    CompactionPlan plan =
        new CompactionPlan(
            catalog.config(), SmallFiles.FACT, base, Long.MAX_VALUE, planned, FailurePoint.NONE);
    PlannedSlice slice = plan.slices().get(0);
    DataFile output = TableRows.write(fact, rows.toArray(Record[]::new));
    List<Rewritten> rewritten =
        List.of(
            new Rewritten(
                slice.groups().get(0).index(), 0, List.of(output), hash(rows), hash(rows)));

    SliceCompaction first =
        new CompactionCommitter(catalog.catalog(), plan).commit(slice, rewritten);
    SliceCompaction again =
        new CompactionCommitter(catalog.catalog(), plan).commit(slice, rewritten);

    fact.refresh();
    assertThat(first.status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    // Without looking its run id up first, the second attempt would take its own first commit for
    // a conflicting change, report exit 4 and delete `output`, which the current snapshot
    // references.
    assertThat(new File(URI.create(output.location()))).exists();
    assertThat(again.status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
  }

  private static ContentHash hash(List<Record> records) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(SmallFiles.SCHEMA);
    records.forEach(r -> hasher.add(r, hash));
    return hash;
  }

  private static Record row(Table fact, long id) {
    return TableRows.row(
        fact,
        Map.of(
            "order_id",
            id,
            "amount",
            new BigDecimal("1.00"),
            "order_date",
            LocalDate.parse("2026-10-03")));
  }
}
