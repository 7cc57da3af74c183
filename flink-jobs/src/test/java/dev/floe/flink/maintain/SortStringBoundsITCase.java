package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End to end: strategy sort on a string column whose values share a 16-character prefix (ids like
 * "customer-account-0001"). The first sort rewrites the overlapping files into ordered, disjoint
 * files; Iceberg stores their bounds truncated to 16 characters, so the overlap rule sees them
 * overlap unless the rule skips bounds that may be truncated: a rerun is a no-op and --plan lists
 * nothing to compact.
 */
class SortStringBoundsITCase {
  private static final String T = "s.accounts";
  private static final String DAY = "2026-10-03";
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "account", Types.StringType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aSecondSortOfAStringSortedPartitionIsANoOp() {
    run("customer-account-%04d");
  }

  private void run(String format) {
    Table table = catalog.create(T, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      ids.add(i);
    }
    Collections.shuffle(ids, new Random(7));
    AppendFiles append = table.newAppend();
    for (int f = 0; f < 8; f++) {
      Record[] rows = new Record[500];
      for (int r = 0; r < 500; r++) {
        rows[r] =
            TableRows.row(
                table,
                Map.of(
                    "account",
                    String.format(format, ids.get(f * 500 + r)),
                    "d",
                    LocalDate.parse(DAY)));
      }
      append.appendFile(TableRows.write(table, rows));
    }
    append.commit();
    table.replaceSortOrder().asc("account").commit();
    table.updateProperties().set(MaintenancePolicy.STRATEGY, "sort").commit();
    // first sort: every input is small (below 3/4 of the target), and the output rolls over into
    // several files
    long firstTarget =
        Deletes.dataFiles(table).stream().mapToLong(DataFile::fileSizeInBytes).max().orElseThrow()
                * 4
                / 3
            + 4;
    long target = 1; // no file is ever small: only the overlap rule could pick the partition

    CompactionResult first = compaction(firstTarget).commit();
    CompactionResult rerun = compaction(target).commit();
    table
        .updateProperties()
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(target))
        .commit();
    MaintenancePlan plan =
        MaintenancePlanner.withClock(
                Clock.fixed(Instant.now().plusSeconds(3600 * 24 * 30), ZoneOffset.UTC))
            .plan(catalog.catalog(), List.of(T));

    assertThat(first.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(Deletes.dataFiles(catalog.load(T))).hasSizeGreaterThan(1);
    assertThat(rerun.slices().get(0).status())
        .as("rerun: %s", rerun.slices().get(0).detail())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(plan.items()).noneMatch(i -> i.action() == PlanAction.COMPACT);
  }

  private Compaction compaction(long target) {
    return Compaction.of(catalog.config(), T).slices(List.of(DAY)).targetFileSizeBytes(target);
  }
}
