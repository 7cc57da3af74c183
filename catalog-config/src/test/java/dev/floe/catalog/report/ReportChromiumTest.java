package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report as a browser shows it: rendered by headless Chromium, the screenshot shows the four
 * state colours on a non-blank page, and the page logs nothing to the console. The two checks are
 * shown to fail on a page with a script error and on a blank page.
 *
 * <p>{@code -Dfloe.report.screenshot=docs/report.png} also keeps the screenshot (how the one in
 * docs/ is made): {@code ./mvnw -o test -pl catalog-config -Dtest=ReportChromiumTest
 * -Dfloe.report.screenshot=$PWD/docs/report.png}.
 */
class ReportChromiumTest {
  /** The state colours of {@link ReportCss}, which the screenshot must show. */
  private static final Map<String, Integer> STATE_COLOURS = new LinkedHashMap<>();

  static {
    STATE_COLOURS.put("loaded", 0x3f9c5f);
    STATE_COLOURS.put("reloaded", 0x2f6fcf);
    STATE_COLOURS.put("late data pending", 0xe8811a);
    STATE_COLOURS.put("sealed", 0x4d5866);
  }

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  @TempDir Path dir;

  @Test
  void theReportShowsEveryStateColourAndLogsNothing() throws Exception {
    // Slices end yesterday and the report is read now, so the commit times Iceberg stamps (the
    // wall clock; it cannot be injected) fit the slices in the picture. The states do not depend
    // on the date: every day's distance to now is the same on any day.
    ReportScenario.build(catalog.catalog(), LocalDate.now(ZoneOffset.UTC).minusDays(1));
    Instant asOf = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    ReportModel model = Report.of(catalog.catalog(), ReportScenario.TABLE).asOf(asOf).build();
    Path page = dir.resolve("report.html");
    Files.writeString(page, ReportHtml.render(model));

    HeadlessChromium.Rendering rendering =
        HeadlessChromium.render(page, dir.resolve("report.png"), 1280, 1700);

    assertThat(model.counts().values()).allMatch(n -> n > 0);
    assertThat(rendering.exitCode()).as(rendering.stderr()).isZero();
    assertThat(rendering.console()).as("console messages of the report page").isEmpty();
    assertThat(
            HeadlessChromium.screenshotProblems(
                rendering.screenshot(), 32, 0.05, STATE_COLOURS, 900))
        .isEmpty();
    String keep = System.getProperty("floe.report.screenshot");
    if (keep != null && !keep.isBlank()) {
      Files.copy(rendering.screenshot(), Path.of(keep), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void aScriptErrorIsCaughtByTheConsoleCheck() throws Exception {
    Path page = dir.resolve("broken.html");
    Files.writeString(
        page,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><p>broken</p>"
            + "<script>noSuchFunction();</script></body></html>");

    HeadlessChromium.Rendering rendering =
        HeadlessChromium.render(page, dir.resolve("broken.png"), 400, 300);

    assertThat(rendering.console())
        .anySatisfy(line -> assertThat(line).contains("Uncaught ReferenceError: noSuchFunction"));
  }

  @Test
  void aBlankPageFailsTheScreenshotCheck() throws Exception {
    Path page = dir.resolve("blank.html");
    Files.writeString(page, "<!DOCTYPE html><html><body></body></html>");

    HeadlessChromium.Rendering rendering =
        HeadlessChromium.render(page, dir.resolve("blank.png"), 400, 300);

    assertThat(rendering.console()).isEmpty();
    assertThat(
            HeadlessChromium.screenshotProblems(
                rendering.screenshot(), 32, 0.05, STATE_COLOURS, 900))
        .hasSize(6)
        .anySatisfy(problem -> assertThat(problem).startsWith("only 1 distinct colours"));
  }
}
