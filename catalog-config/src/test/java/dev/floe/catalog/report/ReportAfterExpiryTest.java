package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.time.Instant;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the report says of slices whose loads an expiry removed from main's history. */
class ReportAfterExpiryTest {
  private static final Instant AS_OF = Instant.parse("2026-10-10T00:00:00Z");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aSliceARevertRestoredFromExpiredLoadsIsNamedNeverCalledUnloaded() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(table, "2026-10-03", "r1", "job", null, 2);
    LineageCommits.load(table, "2026-10-03", "r2", "job", null, 3);
    Revert.of(table, "s.t").run("r2").commit();
    table.refresh();
    long revert = table.currentSnapshot().snapshotId();
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();

    ReportModel model = Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build();

    assertThat(model.slices()).isEmpty(); // no kept commit loaded it: the revert restored it
    assertThat(model.historyCutAt()).isEqualTo(revert);
    assertThat(model.restoredFromExpiredHistory())
        .singleElement()
        .satisfies(
            load -> {
              assertThat(load.snapshotId()).isEqualTo(revert);
              assertThat(load.lineage().slice())
                  .isEqualTo(LineageCommits.day("2026-10-03").label());
              assertThat(load.lineage().rows()).isEqualTo(2);
            });
    String html = ReportHtml.render(model);
    assertThat(html)
        .doesNotContain("No Floe run has loaded a slice")
        .contains("No Floe load of a slice is in the history the table keeps")
        .contains("Slices whose load history was expired")
        .contains("<code>" + LineageCommits.day("2026-10-03").label() + "</code> (job, 2 rows");
  }

  @Test
  void thePageSaysWhereAnExpiryCutMainsHistoryWhenItHidesOlderLoads() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(table, "2026-10-01", "r1", "job", null, 2);
    long r2 = LineageCommits.load(table, "2026-10-02", "r2", "job", null, 2);
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();

    ReportModel model = Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build();

    assertThat(model.slices())
        .extracting(s -> s.slice().label())
        .containsExactly(LineageCommits.day("2026-10-02").label());
    assertThat(ReportHtml.render(model))
        .contains(
            "An expiry cut main's history at snapshot <code>"
                + r2
                + "</code>: slices whose loads are all older are not shown.");
  }

  @Test
  void withMainsHistoryWholeARevertOfTheOnlyLoadLeavesTheSliceUnloaded() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(table, "2026-10-03", "r1", "job", null, 2);
    Revert.of(table, "s.t").run("r1").commit();

    ReportModel model = Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build();

    assertThat(model.slices()).isEmpty();
    assertThat(model.historyCutAt()).isNull();
    assertThat(model.restoredFromExpiredHistory()).isEmpty();
    assertThat(ReportHtml.render(model)).contains("No Floe run has loaded a slice");
  }

  @Test
  void aRevertOfASlicesFirstLoadAfterTheCutRestoredNothingAndIsNotListed() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(table, "2026-10-01", "r1", "job", null, 2);
    long r2 = LineageCommits.load(table, "2026-10-02", "r2", "job", null, 2);
    table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();
    // The first load of Oct 5, kept, then reverted: the slice is empty again. It was listed as
    // "restored from expired loads", with 0 rows.
    LineageCommits.load(table, "2026-10-05", "r3", "job", null, 1);
    LineageCommits.load(table, "2026-10-06", "r4", "job", null, 1);
    Revert.of(table, "s.t").run("r3").commit();

    ReportModel model = Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build();

    assertThat(model.historyCutAt()).isEqualTo(r2);
    assertThat(model.restoredFromExpiredHistory()).isEmpty();
    // A day between the kept loads is no gap Floe can tell: its load may have been expired.
    assertThat(ReportHtml.render(model))
        .contains(
            "2026-10-03: no load in the history kept since an expiry cut it at snapshot " + r2)
        .doesNotContain(": not loaded\"", "<b>not loaded</b>");
  }
}
