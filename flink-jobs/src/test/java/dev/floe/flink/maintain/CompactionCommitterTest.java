package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.error.ExitCodes;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The compaction committer's refusals, on a real table and real Parquet files; no Flink. */
class CompactionCommitterTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private final List<Record> rows = new ArrayList<>();

  @BeforeEach
  void threeSmallFiles() {
    fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    AppendFiles append = fact.newAppend();
    for (int f = 0; f < 3; f++) {
      Record[] file = {row(2L * f + 1), row(2L * f + 2)};
      rows.addAll(Arrays.asList(file));
      append.appendFile(TableRows.write(fact, file));
    }
    append.commit();
    fact.refresh();
  }

  @Test
  void aRewriteThatLostARowIsNotCommittedAndItsFileIsDeleted() {
    CompactionPlan plan = plan();
    PlannedSlice slice = plan.slices().get(0);
    long head = fact.currentSnapshot().snapshotId();
    ContentHash content = TableContent.hash(fact);
    List<Record> lossy = rows.subList(0, rows.size() - 1);
    DataFile output = TableRows.write(fact, lossy.toArray(Record[]::new));

    SliceCompaction outcome =
        new CompactionCommitter(catalog.catalog(), plan)
            .commit(
                slice,
                List.of(
                    new Rewritten(
                        slice.groups().get(0).index(),
                        0,
                        List.of(output),
                        hash(rows),
                        hash(lossy))));

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(SliceCompaction.Status.FAILED);
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(outcome.detail())
        .startsWith("Cannot compact slice order_date=[2026-10-03,2026-10-04) of sales.fact_orders:")
        .contains("the rows written (content hash 5:")
        .contains("differ from the rows read (6:");
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(new File(URI.create(output.location()))).doesNotExist();
  }

  @Test
  void aRewriteThatKeptTheValuesButNotTheRowIdsIsNotCommitted() {
    CompactionPlan plan = plan();
    PlannedSlice slice = plan.slices().get(0);
    long head = fact.currentSnapshot().snapshotId();
    DataFile output = TableRows.write(fact, rows.toArray(Record[]::new));
    // Same values; the lineage hashes (values with _row_id) differ, as when row ids were lost.
    ContentHash withIds = hash(rows);
    ContentHash otherIds = hash(rows.subList(1, rows.size()));

    SliceCompaction outcome =
        new CompactionCommitter(catalog.catalog(), plan)
            .commit(
                slice,
                List.of(
                    new Rewritten(
                        slice.groups().get(0).index(),
                        0,
                        List.of(output),
                        hash(rows),
                        hash(rows),
                        rows.size(),
                        withIds,
                        otherIds)));

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(SliceCompaction.Status.FAILED);
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(outcome.detail()).contains("keep their values but not their row lineage");
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(new File(URI.create(output.location()))).doesNotExist();
  }

  @Test
  void aGroupTheRewritersDidNotReturnIsNotCommitted() {
    CompactionPlan plan = plan();
    long head = fact.currentSnapshot().snapshotId();

    SliceCompaction outcome =
        new CompactionCommitter(catalog.catalog(), plan).commit(plan.slices().get(0), List.of());

    fact.refresh();
    assertThat(outcome.status()).isEqualTo(SliceCompaction.Status.FAILED);
    assertThat(outcome.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(outcome.detail()).contains("the rewriters returned groups [] but [0] were planned");
    assertThat(fact.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  private CompactionPlan plan() {
    List<String> values = List.of("2026-10-03");
    List<Slice> slices = CompactionSlices.resolve(SmallFiles.FACT, fact, values);
    long base = fact.currentSnapshot().snapshotId();
    List<PlannedSlice> planned = CompactionPlanner.plan(fact, base, values, slices, Long.MAX_VALUE);
    assertThat(planned.get(0).groups()).hasSize(1);
    return new CompactionPlan(
        catalog.config(), SmallFiles.FACT, base, Long.MAX_VALUE, planned, FailurePoint.NONE);
  }

  private static ContentHash hash(List<Record> records) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(SmallFiles.SCHEMA);
    records.forEach(r -> hasher.add(r, hash));
    return hash;
  }

  private Record row(long id) {
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
