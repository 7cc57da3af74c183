package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Clock;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Partitions s=NULL and s='null', which Iceberg's partition paths write alike ({@code s=null}): the
 * plan groups their files apart, as compaction does, so it proposes what applying it does.
 */
class PlanAgreesWithCompactionOnNullPartitionsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "s", Types.StringType.get()));
  private static final LocalDate DAY = LocalDate.of(2026, 1, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void oneSmallFileInANullAndOneInANullStringPartitionAreNoCompaction() {
    Table table = table(1);

    MaintenancePlan plan = plan();
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();

    assertThat(plan.items()).as(plan.items().toString()).noneMatch(this::isCompaction);
    assertThat(applied.outcomes()).noneMatch(o -> isCompaction(o.item()));
    assertThat(Deletes.dataFiles(table)).hasSize(2);
  }

  @Test
  void twoSmallFilesInEachAreCompactedIntoOneEachAsThePlanSaid() {
    Table table = table(2);
    ContentHash content = TableContent.hash(table);

    MaintenancePlan plan = plan();
    PlanItem item =
        plan.items().stream()
            .filter(this::isCompaction)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no compaction in " + plan.items()));
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();

    assertThat(applied.outcomes())
        .filteredOn(o -> isCompaction(o.item()))
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    assertThat(item.before()).isEqualTo(4);
    assertThat(item.after()).isEqualTo(2);
    assertThat(Deletes.dataFiles(table)).hasSize((int) item.after());
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(plan().items()).noneMatch(this::isCompaction);
  }

  /** {@code files} one-row files in partition s=NULL and as many in s='null', of one day. */
  private Table table(int files) {
    Table table =
        catalog.create(
            "s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").identity("s").build());
    table.updateProperties().set(MaintenancePolicy.MIN_INPUT_FILES, "2").commit();
    long id = 0;
    for (String s : new String[] {null, "null"}) {
      for (int f = 0; f < files; f++) {
        Map<String, Object> row = new HashMap<>(Map.of("id", id++, "d", DAY));
        if (s != null) {
          row.put("s", s);
        }
        TableRows.append(table, TableRows.row(table, row));
      }
    }
    return table;
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of("s.t"));
  }

  private boolean isCompaction(PlanItem item) {
    return item.action() == PlanAction.COMPACT;
  }
}
