package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With strategy sort or zorder a compacted partition is rewritten whole (CompactionPlanner), so the
 * maintenance planner counts the whole partition, not only its small files, in the item's
 * bytes_to_rewrite, which --apply --max-bytes budgets on.
 */
class SortPlanBudgetTest {
  private static final String DAY = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void thePlannedBytesOfASortedCompactionAreTheBytesItRewrites() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY, 1, 50_000, 1_000_000); // one large file
    SmallFiles.append(fact, DAY, 5, 10, 1); // five small files, min_input_files 5
    long large =
        Deletes.dataFiles(fact).stream().mapToLong(DataFile::fileSizeInBytes).max().orElseThrow();
    fact.replaceSortOrder().asc("order_id").commit();
    fact.updateProperties()
        .set(MaintenancePolicy.STRATEGY, "sort")
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(large - 1))
        .commit();
    fact.refresh();

    MaintenancePlan plan =
        MaintenancePlanner.withClock(
                Clock.fixed(Instant.now().plusSeconds(3600 * 24 * 30), ZoneOffset.UTC))
            .plan(catalog.catalog(), List.of(SmallFiles.FACT));
    PlanItem item =
        plan.items().stream()
            .filter(i -> i.action() == PlanAction.COMPACT)
            .findFirst()
            .orElseThrow();
    List<Slice> slices = CompactionSlices.resolve(SmallFiles.FACT, fact, List.of(DAY));
    List<PlannedSlice> planned =
        CompactionPlanner.plan(
            fact,
            fact.currentSnapshot().snapshotId(),
            List.of(DAY),
            slices,
            large - 1,
            DeleteThresholds.NEVER,
            RowLayout.of(fact, SmallFiles.FACT));
    long rewritten =
        planned.get(0).groups().stream()
            .flatMap(g -> g.inputs().stream())
            .mapToLong(DataFile::fileSizeInBytes)
            .sum();

    assertThat(rewritten).isGreaterThan(large); // the large file is rewritten too
    assertThat(item.bytesToRewrite())
        .as("bytes the plan (and --max-bytes) counts for %s", item.target())
        .isGreaterThanOrEqualTo(rewritten);
  }
}
