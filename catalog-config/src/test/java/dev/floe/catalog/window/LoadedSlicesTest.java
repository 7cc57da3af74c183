package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.snapshot.RevertPlan;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Loads per slice come from the current history: rolled-back and reverted runs do not count. */
class LoadedSlicesTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void aTable() {
    table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
  }

  @Test
  void loadsAreGroupedBySliceNewestFirstAndSortedByStart() {
    LineageCommits.load(table, "2026-10-04", "r1", "job", null, 1);
    LineageCommits.load(table, "2026-10-03", "r2", "job", null, 2);
    LineageCommits.load(table, "2026-10-03", "r3", "job", null, 3);

    List<LoadedSlice> slices = LoadedSlices.of(table).slices();

    assertThat(slices)
        .extracting(s -> s.slice().value())
        .containsExactly("2026-10-03", "2026-10-04");
    assertThat(slices.get(0).loads())
        .extracting(l -> l.lineage().runId())
        .containsExactly("r3", "r2");
    assertThat(slices.get(0).latest().lineage().rows()).isEqualTo(3);
  }

  @Test
  void aRolledBackRunDoesNotCount() {
    LineageCommits.load(table, "2026-10-03", "r1", "job", null, 1);
    LineageCommits.load(table, "2026-10-03", "r2", "job", null, 1);
    Rollback.of(table, "s.t").beforeRun("r2").commit();
    table.refresh();

    assertThat(LoadedSlices.of(table).slices().get(0).loads())
        .extracting(l -> l.lineage().runId())
        .containsExactly("r1");
  }

  @Test
  void aRevertedRunDoesNotCountUnlessTheRevertWasRevertedToo() {
    LineageCommits.load(table, "2026-10-03", "r1", "job", null, 1);
    LineageCommits.load(table, "2026-10-03", "r2", "job", null, 1);
    LineageCommits.revert(table, "2026-10-03", "r2", 1);

    assertThat(LoadedSlices.of(table).slices().get(0).loads())
        .extracting(l -> l.lineage().runId())
        .containsExactly("r1");

    // A revert with a run id of its own undoes r1 too; reverting that revert brings r1 back.
    table
        .newOverwrite()
        .overwriteByRowFilter(LineageCommits.day("2026-10-03").toExpression())
        .set(LineageKeys.REVERTS, "r1")
        .set(LineageKeys.RUN_ID, "revert-of-r1")
        .commit();
    table.refresh();
    assertThat(LoadedSlices.of(table).slices()).isEmpty();

    table
        .newOverwrite()
        .overwriteByRowFilter(LineageCommits.day("2026-10-03").toExpression())
        .set(LineageKeys.REVERTS, "revert-of-r1")
        .commit();
    table.refresh();
    assertThat(LoadedSlices.of(table).slices().get(0).loads())
        .extracting(l -> l.lineage().runId())
        .containsExactly("r1");
  }

  @Test
  void laterRunsWhoseChangesAForcedRevertDiscardedDoNotCountUnlessThatRevertIsReverted() {
    LineageCommits.load(table, "2026-10-03", "r1", "job", null, 1);
    LineageCommits.load(table, "2026-10-03", "r2", "job", null, 2);
    LineageCommits.load(table, "2026-10-03", "r3", "job", null, 3);
    LineageCommits.load(table, "2026-10-04", "r4", "job", null, 4);

    RevertPlan forced = Revert.of(table, "s.t").run("r2").force(true).commit();
    table.refresh();

    // The day holds r1's row again: r3's load of it was discarded with r2's.
    assertThat(table.currentSnapshot().summary()).containsEntry(LineageKeys.DISCARDS, "r3");
    assertThat(LoadedSlices.of(table).slices())
        .extracting(s -> s.slice().value() + ":" + s.latest().lineage().runId())
        .containsExactly("2026-10-03:r1", "2026-10-04:r4");

    Revert.of(table, "s.t").run(forced.revertRunId()).commit();
    table.refresh();
    assertThat(LoadedSlices.of(table).slices().get(0).loads())
        .extracting(l -> l.lineage().runId())
        .containsExactly("r3", "r2", "r1");
  }

  @Test
  void aLaterRunAForcedRevertUndidOnlyInPartKeepsCounting() {
    LineageCommits.load(table, "2026-10-03", "d3", "daily", null, 1);
    LineageCommits.load(table, "2026-10-04", "d4", "daily", null, 1);
    // A month run replaces October, the reverted day among its days.
    Slice october = LineageCommits.month("2026-10");
    Lineage month =
        new Lineage(
            "k-m", "m1", "monthly", "overwrite", october.label(), "v", 2, "h", Map.of(), null);
    var overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(october.toExpression())
            .addFile(
                TableRows.write(
                    table,
                    TableRows.row(table, Map.of("id", 901L, "d", LocalDate.parse("2026-10-03"))),
                    TableRows.row(table, Map.of("id", 902L, "d", LocalDate.parse("2026-10-04")))));
    month.toSummary().forEach(overwrite::set);
    overwrite.commit();
    table.refresh();

    Revert.of(table, "s.t").run("d3").force(true).commit();
    table.refresh();

    // 2026-10-04 still holds the month run's row: the month run still counts, and owns it.
    assertThat(table.currentSnapshot().summary()).doesNotContainKey(LineageKeys.DISCARDS);
    assertThat(LoadedSlices.of(table).slices())
        .extracting(s -> s.slice().label() + ":" + s.latest().lineage().runId())
        .containsExactly("d=[2026-10-01,2026-11-01):m1", "d=[2026-10-04,2026-10-05):d4");
  }

  @Test
  void theWholeTableScopeIsNotASlice() {
    Lineage swap = new Lineage("k", "r-swap", "dim", "swap", "*", "v", 0, "h", Map.of(), null);
    var overwrite =
        table
            .newOverwrite()
            .overwriteByRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue());
    swap.toSummary().forEach(overwrite::set);
    overwrite.commit();
    table.refresh();

    LoadedSlices loaded = LoadedSlices.of(table);

    assertThat(loaded.slices()).isEmpty();
    assertThat(loaded.unplaced()).containsOnlyKeys("*");
  }
}
