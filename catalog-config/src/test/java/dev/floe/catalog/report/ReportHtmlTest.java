package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The page: escaped, self-contained, one cell per slice, and the same bytes for the same inputs.
 */
class ReportHtmlTest {
  private static final String EVIL_JOB = "<script>alert('job')</script>";
  private static final String EVIL_LABEL = "\"><img src=x onerror=alert(1)>";
  private static final Instant AS_OF = Instant.parse("2026-10-05T12:00:00Z");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void aTableWithHostileNames() {
    table = LineageCommits.create(catalog.catalog(), "s.t", ReportTest.window("P3D", "report"));
    Table staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    LineageCommits.append(staging, "2026-10-01", 1);
    LineageCommits.load(table, "2026-10-01", "r1", EVIL_JOB, staging, 1);
    LineageCommits.load(table, "2026-10-02", "r2", "fact_daily", staging, 1);
    LineageCommits.load(table, "2026-10-02", "r<3>", "fact_daily", staging, 1);
    LineageCommits.load(table, "2026-10-30", "r4", "fact_daily", staging, 1);
    LineageCommits.append(staging, "2026-10-30", 2);
    // A commit whose slice label is not a slice: it shows in the timeline and the unplaced list.
    OverwriteFiles odd = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysFalse());
    new Lineage("k", "r5", "odd", "overwrite", EVIL_LABEL, "v", 0, "h", Map.of(), null)
        .toSummary()
        .forEach(odd::set);
    odd.commit();
  }

  @Test
  void everyStringFromTheTableIsEscaped() {
    String html = render(AS_OF);

    assertThat(html).doesNotContain("<script", "<img", "onerror=alert(1)>");
    assertThat(html)
        .contains("&lt;script&gt;alert(&#39;job&#39;)&lt;/script&gt;")
        .contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
        .contains("r&lt;3&gt;");
  }

  @Test
  void thePageLoadsNothingAndRunsNoScript() {
    String html = render(AS_OF);

    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains(
            "Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'")
        .doesNotContain("http://", "https://", "src=\"", "<link", "<script", "url(", "@import");
  }

  @Test
  void theSameInputsGiveTheSameBytesAndAnotherAsOfDoesNot() {
    String first = render(AS_OF);
    String again = ReportHtml.render(Report.of(catalog.catalog(), "s.t").asOf(AS_OF).build());
    String later = render(AS_OF.plusSeconds(86_400));

    assertThat(again).isEqualTo(first);
    assertThat(later).isNotEqualTo(first);
    assertThat(first).contains("2026-10-05 12:00:00Z", "2026-10-05T12:00:00Z");
  }

  @Test
  void thereIsOneCellPerSliceInAMonthCalendarWithTheLineageOnHover() {
    String html = render(AS_OF);

    assertThat(count(html, "<span class=\"c s-")).isEqualTo(3);
    assertThat(count(html, "<span class=\"c none\"")).isEqualTo(30 - 3); // gaps: Oct 3 to 29
    assertThat(count(html, "<span class=\"c out\">")).isEqualTo(1); // Oct 31, after the last
    assertThat(html)
        .contains("<h4>October 2026</h4>", "class=\"c s-late\"", "class=\"c s-reloaded");
    Matcher oct2 =
        Pattern.compile("<span class=\"c s-reloaded\" title=\"([^\"]*)\">2<").matcher(html);
    assertThat(oct2.find()).isTrue();
    assertThat(oct2.group(1))
        .contains("d=[2026-10-02,2026-10-03)&#10;state: reloaded")
        .contains("loaded 2 times", "run id: r&lt;3&gt;", "job: fact_daily", "mode: overwrite")
        .contains("rows: 1", "content hash: ", "code version: 0.1.0-test")
        .contains("source snapshots: s.staging@", "committed: ", "window: open, seals 2026-10-06");
  }

  @Test
  void theLegendSaysWhenNoSliceCanBeSealed() {
    table.updateProperties().remove("floe.late-data.window").commit();

    assertThat(render(AS_OF))
        .contains(
            "never: this table has no late-data window (table property floe.late-data.window)");
  }

  @Test
  void hourSlicesAreRowsOf24PerDayAndMonthSlicesRowsOf12PerYear() {
    org.apache.iceberg.Schema schema =
        new org.apache.iceberg.Schema(
            org.apache.iceberg.types.Types.NestedField.required(
                1, "ts", org.apache.iceberg.types.Types.TimestampType.withZone()));
    Table hourly =
        catalog.create(
            "s.hourly",
            schema,
            org.apache.iceberg.PartitionSpec.builderFor(schema).hour("ts").build());
    commitLineage(hourly, "r1", "ts=[2026-10-03T05:00,2026-10-03T06:00)");
    commitLineage(hourly, "r2", "ts=[2026-10-04T23:00,2026-10-05T00:00)");
    commitLineage(hourly, "r3", "ts=[2026-01-01,2026-02-01)");
    commitLineage(hourly, "r4", "ts=[2026-03-01,2026-04-01)");

    String html =
        ReportHtml.render(Report.of(hourly, "s.hourly", catalog::load).asOf(AS_OF).build());

    assertThat(html).contains("<h3>ts \u00b7 hour slices", "<h3>ts \u00b7 month slices");
    assertThat(count(html, "<span class=\"rowlabel\">2026-10-0")).isEqualTo(2); // two days
    assertThat(count(html, "<span class=\"c s-loaded\"")).isEqualTo(4);
    assertThat(count(html, "<span class=\"c none\"")).isEqualTo(2 * 24 - 2 + 12 - 2);
    assertThat(html).contains("title=\"2026-10-03T04: not loaded\">04<");
    assertThat(html).contains("title=\"2026-02: not loaded\">Feb<");
  }

  private static void commitLineage(Table table, String runId, String label) {
    OverwriteFiles overwrite = table.newOverwrite().overwriteByRowFilter(Expressions.alwaysFalse());
    new Lineage("k-" + runId, runId, "hourly", "overwrite", label, "v", 0, "h", Map.of(), null)
        .toSummary()
        .forEach(overwrite::set);
    overwrite.commit();
  }

  private String render(Instant asOf) {
    return ReportHtml.render(
        Report.of(table, "s.t", name -> catalog.load(name)).asOf(asOf).build());
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
