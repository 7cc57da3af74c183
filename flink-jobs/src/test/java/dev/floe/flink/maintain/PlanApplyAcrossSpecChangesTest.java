package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What `floe maintain --plan` proposes on a table whose partition spec changed, apply does. */
class PlanApplyAcrossSpecChangesTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private final LocalDate day = MaintenanceCatalog.OLD_DAY;

  @Test
  void smallFilesOfADayUnderAnOlderMonthPartitionAreCompactedAndThePlanThenSettles() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    Table table = t.table("s.finer");
    table.updateSpec().removeField("d").addField(Expressions.month("d")).commit();
    table.refresh();
    t.files(table, day, 2, 3);
    table.updateSpec().removeField("d_month").addField(Expressions.day("d")).commit();
    table.refresh();
    t.files(table, day, 6, 3);
    ContentHash before = TableContent.hash(catalog.load("s.finer"));

    MaintenancePlan plan = plan();
    ApplyResult result = PlanApply.of(catalog.config(), plan).run();

    assertThat(compactions(plan)).hasSize(1);
    assertThat(result.outcomes())
        .filteredOn(outcome -> outcome.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(
            outcome ->
                assertThat(outcome.status())
                    .as(outcome.detail())
                    .isEqualTo(ItemOutcome.Status.DONE));
    Table after = catalog.load("s.finer");
    assertThat(PlanApplySliceFailureTest.currentSpecFiles(after)).isEqualTo(1);
    assertThat(TableContent.hash(after)).isEqualTo(before);
    assertThat(compactions(plan())).as("the next plan").isEmpty();
  }

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .plan(catalog.catalog(), List.of("s.finer"));
  }

  private static List<PlanItem> compactions(MaintenancePlan plan) {
    return plan.items().stream().filter(i -> i.action() == PlanAction.COMPACT).toList();
  }
}
