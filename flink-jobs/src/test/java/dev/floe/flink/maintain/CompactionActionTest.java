package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Compaction as a `floe maintain` action: checks first, numbers before and after. */
class CompactionActionTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aDryRunPredictsOneSnapshotPerSliceAndTheFilesLeftAndChangesNothing() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 6, 5, 1);
    SmallFiles.append(fact, "2026-10-04", 4, 5, 100);
    CompactionAction action =
        CompactionAction.of(
            catalog.config(),
            SmallFiles.FACT,
            Compaction.of(catalog.config(), SmallFiles.FACT)
                .slices(List.of("2026-10-03", "2026-10-04")));

    action.check();
    MaintenanceReport report = action.run(true);

    assertThat(report.action()).isEqualTo("compact");
    assertThat(report.before().dataFiles()).isEqualTo(10);
    assertThat(report.after().dataFiles()).isEqualTo(2);
    assertThat(report.after().snapshots()).isEqualTo(report.before().snapshots() + 2);
    assertThat(report.estimated()).contains("dataBytes", "metadataBytes");
    assertThat(report.outcome().changed()).isFalse();
    assertThat(report.outcome().lines().get(0)).isEqualTo("2026-10-03     would compact");
    assertThat(report.outcome().details()).containsKey("compaction");
    assertThat(report.outcome().details().get("compaction")).asString().contains("dry_run=true");
    assertThat(action.exitCode()).isZero();
    fact.refresh();
    assertThat(SmallFiles.dataFiles(fact, "2026-10-03")).hasSize(6);
  }

  @Test
  void aBadSliceIsRefusedByCheckBeforeAnythingRuns() {
    catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    CompactionAction action =
        CompactionAction.of(
            catalog.config(),
            SmallFiles.FACT,
            Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of("2026-10-03T07")));

    assertThatThrownBy(action::check)
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot use --slice 2026-10-03T07 on sales.fact_orders");
  }
}
