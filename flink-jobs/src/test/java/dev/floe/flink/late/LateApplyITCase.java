package dev.floe.flink.late;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.window.AsOf;
import dev.floe.catalog.window.LateAction;
import dev.floe.catalog.window.LatePlan;
import dev.floe.catalog.window.LateSlice;
import dev.floe.catalog.window.WindowState;
import dev.floe.flink.commit.CommitOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LateApply} on real runs (Flink MiniCluster, embedded catalog). Oct 1 to 4 are loaded with
 * two orders each; under the P3D window a day Oct k seals at Oct k+4. Per-day checksums are read
 * from the table's files before and after, so "untouched" and "now includes the late rows" are
 * measured, not taken from lineage.
 */
class LateApplyITCase {
  private static final List<String> DAYS =
      List.of("2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04");

  @TempDir Path home;
  private CatalogConfig config;
  private LateTables tables;

  private void fourLoadedDays(String afterWindow) {
    config = CatalogConfigLoader.embedded(home);
    tables = LateTables.create(config, "P3D", afterWindow);
    DAYS.forEach(day -> tables.arrive(day, 2));
    DAYS.forEach(tables::load);
  }

  @Test
  void lateRowsInsideTheWindowRerunExactlyThoseSlicesAndTheRestStaysUntouched() {
    fourLoadedDays("report");
    Map<String, ContentHash> before = hashes();
    Map<String, Long> loadsBefore = latestLoads();
    tables.arrive("2026-10-02", 1);
    tables.arrive("2026-10-04", 2);
    Instant asOf = AsOf.parse("--as-of", "2026-10-05T12:00:00Z");

    LateApplyResult result = LateApply.of(config, LateTables.job()).asOf(asOf).run();

    assertThat(result.plan().slices())
        .extracting(s -> s.slice().value(), LateSlice::state, LateSlice::action)
        .containsExactly(
            tuple("2026-10-01", WindowState.SEALED, LateAction.NONE),
            tuple("2026-10-02", WindowState.OPEN, LateAction.RERUN),
            tuple("2026-10-03", WindowState.OPEN, LateAction.NONE),
            tuple("2026-10-04", WindowState.OPEN, LateAction.RERUN));
    assertThat(result.reruns())
        .extracting(
            r -> r.planned().slice().value(), SliceRerun::status, r -> r.result().outcome().rows())
        .containsExactly(
            tuple("2026-10-02", "committed", 3L), tuple("2026-10-04", "committed", 4L));
    assertThat(result.exitCode()).isZero();
    Map<String, ContentHash> after = hashes();
    Map<String, Long> loadsAfter = latestLoads();
    for (String untouched : List.of("2026-10-01", "2026-10-03")) {
      assertThat(after.get(untouched)).isEqualTo(before.get(untouched));
      assertThat(loadsAfter.get(untouched)).isEqualTo(loadsBefore.get(untouched));
    }
    for (String rerun : List.of("2026-10-02", "2026-10-04")) {
      assertThat(after.get(rerun)).isNotEqualTo(before.get(rerun));
      // The slice is now exactly the source's day, late rows included (same schema, same hash).
      assertThat(after.get(rerun)).isEqualTo(tables.hash("sales.staging_orders", rerun));
      assertThat(loadsAfter.get(rerun)).isNotEqualTo(loadsBefore.get(rerun));
    }
    assertThat(tables.table("sales.fact_orders").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-02");

    // Applying again at the same instant finds nothing late: nothing is rerun, nothing changes.
    Table fact = tables.table("sales.fact_orders");
    LateApplyResult again = LateApply.of(config, LateTables.job()).asOf(asOf).run();
    assertThat(again.reruns()).isEmpty();
    assertThat(again.plan().slices()).allSatisfy(s -> assertThat(s.knownLateRows()).isZero());
    assertThat(tables.table("sales.fact_orders").currentSnapshot().snapshotId())
        .isEqualTo(fact.currentSnapshot().snapshotId());
  }

  @Test
  void lateRowsOfASealedSliceUnderReportAreReportedAndTheTableIsUnchanged() {
    fourLoadedDays("report");
    tables.arrive("2026-10-01", 3);
    Table before = tables.table("sales.fact_orders");
    ContentHash content = TableContent.hash(before);

    LateApplyResult result =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-06")).run();

    LateSlice oct1 = result.plan().slices().get(0);
    assertThat(oct1.action()).isEqualTo(LateAction.REPORT);
    assertThat(oct1.knownLateRows()).isEqualTo(3);
    assertThat(result.plan().reported()).containsExactly(oct1);
    assertThat(result.reruns()).isEmpty();
    Table after = tables.table("sales.fact_orders");
    assertThat(TableContent.hash(after)).isEqualTo(content);
    assertThat(after.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(TableContent.hash(after, LateTables.day("2026-10-01")).rows()).isEqualTo(2);
    // Oct 1 and Oct 2 are sealed as of Oct 6; the marker is a property, not a snapshot.
    assertThat(after.properties()).containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-03");
  }

  @Test
  void reopenRerunsASealedSliceWithItsLateRows() {
    fourLoadedDays("reopen");
    Map<String, ContentHash> before = hashes();
    tables.arrive("2026-10-01", 3);

    LateApplyResult result =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-06")).run();

    assertThat(result.reruns()).hasSize(1);
    SliceRerun oct1 = result.reruns().get(0);
    assertThat(oct1.planned().action()).isEqualTo(LateAction.RERUN_REOPENED);
    assertThat(oct1.result().outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    Map<String, ContentHash> after = hashes();
    assertThat(after.get("2026-10-01").rows()).isEqualTo(5);
    assertThat(after.get("2026-10-01"))
        .isEqualTo(tables.hash("sales.staging_orders", "2026-10-01"));
    for (String untouched : DAYS.subList(1, 4)) {
      assertThat(after.get(untouched)).isEqualTo(before.get(untouched));
    }
  }

  @Test
  void aSlicePartitionedAnotherWaySinceIsNotRerunAndTheApplyFailsWithoutMovingTheMarker() {
    fourLoadedDays("reopen");
    Map<String, ContentHash> before = hashes();
    tables.arrive("2026-10-01", 3);
    org.apache.iceberg.catalog.Catalog catalog = Catalogs.open(config);
    try {
      Catalogs.loadTable(catalog, "sales.fact_orders")
          .updateSpec()
          .removeField("order_date")
          .addField(org.apache.iceberg.expressions.Expressions.month("order_date"))
          .commit();
    } finally {
      Catalogs.close(catalog);
    }

    LateApplyResult result =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-06")).run();

    assertThat(result.reruns()).isEmpty();
    assertThat(result.plan().slices().get(0).action()).isEqualTo(LateAction.CANNOT_RERUN);
    assertThat(result.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(result.sealedThroughAfter()).isNull();
    assertThat(result.sealedThroughStoppedBy()).contains("2026-10-01 cannot be rerun as loaded");
    assertThat(hashes()).isEqualTo(before);
  }

  @Test
  void aFailedSliceIsReportedTheOthersStillRunAndTheMarkerStopsBeforeIt() {
    fourLoadedDays("reopen");
    Map<String, ContentHash> before = hashes();
    tables.arriveWithoutAmount("2026-10-02"); // sealed as of Oct 7, reopened, fails not_null
    tables.arrive("2026-10-04", 1); // open as of Oct 7

    LateApplyResult result =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-07")).run();

    assertThat(result.reruns())
        .extracting(r -> r.planned().slice().value(), SliceRerun::status)
        .containsExactly(tuple("2026-10-02", "failed"), tuple("2026-10-04", "committed"));
    assertThat(result.reruns().get(0).error()).contains("not_null: [order_id, amount] failed");
    assertThat(result.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    Map<String, ContentHash> after = hashes();
    assertThat(after.get("2026-10-02")).isEqualTo(before.get("2026-10-02"));
    assertThat(after.get("2026-10-04").rows()).isEqualTo(3);
    // Oct 1 to 3 are sealed, but Oct 2 still waits for its rerun: the marker stops before it.
    assertThat(result.sealedThroughAfter()).isEqualTo(Instant.parse("2026-10-02T00:00:00Z"));
    assertThat(tables.table("sales.fact_orders").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-02");
  }

  @Test
  void theDryRunWritesNothingAndTheMarkerNeverMovesBack() {
    fourLoadedDays("report");
    tables.arrive("2026-10-04", 1);
    Table before = tables.table("sales.fact_orders");

    LateApplyResult dry =
        LateApply.of(config, LateTables.job())
            .asOf(AsOf.parse("--as-of", "2026-10-07"))
            .dryRun(true)
            .run();

    assertThat(dry.plan().reruns())
        .extracting(s -> s.slice().value())
        .containsExactly("2026-10-04");
    assertThat(dry.reruns()).isEmpty();
    assertThat(dry.sealedThroughAfter()).isEqualTo(Instant.parse("2026-10-04T00:00:00Z"));
    Table unchanged = tables.table("sales.fact_orders");
    assertThat(unchanged.properties()).doesNotContainKey(FloeTableProperties.SEALED_THROUGH);
    assertThat(unchanged.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());

    LateApplyResult later =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-08")).run();
    LatePlan earlierPlan =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-06")).plan();
    LateApplyResult earlier =
        LateApply.of(config, LateTables.job()).asOf(AsOf.parse("--as-of", "2026-10-06")).run();

    assertThat(later.sealedThroughAfter()).isEqualTo(Instant.parse("2026-10-05T00:00:00Z"));
    assertThat(later.plan().reported()).extracting(s -> s.slice().value()).contains("2026-10-04");
    ContentHash sealedOct4 = tables.hash("sales.fact_orders", "2026-10-04");
    // As of Oct 6 the windows of Oct 3 and 4 are open, but the marker already declared every day
    // up to Oct 5 final: they stay sealed, and Oct 4's late row is still only reported.
    assertThat(earlierPlan.slices())
        .extracting(LateSlice::state)
        .containsExactly(
            WindowState.SEALED, WindowState.SEALED, WindowState.SEALED, WindowState.SEALED);
    assertThat(earlierPlan.slices().get(3).note())
        .contains("sealed by floe.sealed-through=2026-10-05");
    assertThat(earlier.reruns()).isEmpty();
    assertThat(tables.hash("sales.fact_orders", "2026-10-04")).isEqualTo(sealedOct4);
    assertThat(earlier.sealedThroughMoved()).isFalse();
    assertThat(tables.table("sales.fact_orders").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-05");
  }

  private Map<String, ContentHash> hashes() {
    Map<String, ContentHash> hashes = new HashMap<>();
    DAYS.forEach(day -> hashes.put(day, tables.hash("sales.fact_orders", day)));
    return hashes;
  }

  private Map<String, Long> latestLoads() {
    Map<String, Long> loads = new HashMap<>();
    DAYS.forEach(day -> loads.put(day, tables.latestLoad(day)));
    return loads;
  }
}
