package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One compaction item that compaction refuses fails alone; the table's other slices proceed. */
class PlanApplySliceFailureTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private final LocalDate day = MaintenanceCatalog.OLD_DAY;

  @Test
  void aSliceCompactionRefusesFailsAloneAndTheTablesOtherSlicesAreCompacted() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    Table table = t.table("s.evo");
    t.files(table, day, 6, 3);
    table.updateSpec().removeField("d").addField(Expressions.month("d")).commit();
    table.refresh();
    t.files(table, day.plusDays(1), 6, 3);
    MaintenancePlan planned =
        MaintenancePlanner.withClock(java.time.Clock.systemUTC())
            .plan(catalog.catalog(), List.of("s.evo"));
    PlanItem good =
        planned.items().stream()
            .filter(i -> i.action() == PlanAction.COMPACT)
            .findFirst()
            .orElseThrow();
    // The day slice of the older spec, which the month spec no longer cuts: compaction refuses it.
    PlanItem refused =
        new PlanItem(
            good.table(),
            PlanAction.COMPACT,
            Optional.of("d=" + day),
            good.score() + 1,
            good.reasons(),
            good.before(),
            good.after(),
            good.unit(),
            good.bytesToRewrite(),
            0);
    MaintenancePlan plan =
        new MaintenancePlan(
            planned.asOf(), List.of(refused, good), List.of(), planned.health(), Map.of(), 0);
    ContentHash before = TableContent.hash(catalog.load("s.evo"));
    int currentSpecFilesBefore = currentSpecFiles(catalog.load("s.evo"));

    ApplyResult result = PlanApply.of(catalog.config(), plan).run();

    assertThat(result.outcomes().get(0).status()).isEqualTo(ItemOutcome.Status.FAILED);
    assertThat(result.outcomes().get(0).exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(result.outcomes().get(1).status())
        .as(result.outcomes().get(1).detail())
        .isEqualTo(ItemOutcome.Status.DONE);
    Table after = catalog.load("s.evo");
    assertThat(currentSpecFiles(after)).isLessThan(currentSpecFilesBefore);
    assertThat(TableContent.hash(after)).isEqualTo(before);
  }

  /** The data files of {@code table}'s current partition spec. */
  static int currentSpecFiles(Table table) {
    int files = 0;
    for (FileScanTask task : table.newScan().planFiles()) {
      if (task.file().specId() == table.spec().specId()) {
        files++;
      }
    }
    return files;
  }
}
