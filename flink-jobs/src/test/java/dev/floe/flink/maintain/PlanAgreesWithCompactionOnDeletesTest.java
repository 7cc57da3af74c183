package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.MaintenancePlanner;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plan proposes a compaction for delete files exactly when compaction picks a file for them: an
 * applied plan leaves nothing to propose again.
 */
class PlanAgreesWithCompactionOnDeletesTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  private MaintenancePlan plan() {
    return MaintenancePlanner.withClock(Clock.systemUTC())
        .includeOpen(true)
        .plan(catalog.catalog(), List.of("s.t"));
  }

  private long compactions(MaintenancePlan plan) {
    return plan.items().stream().filter(i -> i.action() == PlanAction.COMPACT).count();
  }

  @Test
  void equalityDeletesOfHalfAFilesRowsAreNoReasonCompactionKnowsSoNoneIsPlanned() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    Table table = t.table("s.t");
    DataFile file = t.files(table, MaintenanceCatalog.OLD_DAY, 1, 10).get(0);
    Deletes.commit(table, Deletes.equality(table, file.partition(), "id", 1, 2, 3, 4, 5));
    assertThat(dev.floe.catalog.lineage.TableContent.hash(table).rows()).isEqualTo(5);

    MaintenancePlan plan = plan();
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();

    assertThat(compactions(plan)).as(plan.items().toString()).isZero();
    assertThat(applied.outcomes()).noneMatch(o -> o.item().action() == PlanAction.COMPACT);
  }

  @Test
  void positionDeletesOfHalfAFilesRowsArePlannedAndTheAppliedPlanLeavesNothingToPropose() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    Table table = t.table("s.t");
    DataFile file = t.files(table, MaintenanceCatalog.OLD_DAY, 1, 10).get(0);
    t.deleteRows(table, file, 5);

    MaintenancePlan plan = plan();
    ApplyResult applied = PlanApply.of(catalog.config(), plan).run();

    assertThat(compactions(plan)).as(plan.items().toString()).isEqualTo(1);
    assertThat(applied.outcomes())
        .filteredOn(o -> o.item().action() == PlanAction.COMPACT)
        .singleElement()
        .satisfies(o -> assertThat(o.status()).as(o.detail()).isEqualTo(ItemOutcome.Status.DONE));
    assertThat(compactions(plan())).isZero();
  }
}
