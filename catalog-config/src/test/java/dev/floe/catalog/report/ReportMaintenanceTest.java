package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The report's maintenance section: health against the table's policy and the plan's top items. */
class ReportMaintenanceTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private final Instant asOf = Instant.now().plus(1, ChronoUnit.MINUTES);

  @Test
  void showsTheNumbersAgainstThePolicyAndThePlansTopItems() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, asOf);
    Table table = t.table("s.t");
    t.set(table, Map.of(MaintenancePolicy.MIN_INPUT_FILES, "4"));
    t.files(table, MaintenanceCatalog.OLD_DAY, 6, 2);
    t.history(table, MaintenanceCatalog.OLD_DAY.plusDays(1), 4);

    String html = render("s.t");

    assertThat(html)
        .contains("<h2>Maintenance</h2>")
        .contains("<td>small data files</td><td>10 of 10</td>")
        .contains("compact a partition from 4 small files (binpack)")
        .contains("<td>snapshots</td><td>5 (2 beyond retention)</td>")
        .contains("Plan: top items")
        .contains("<b>compact</b> d=" + MaintenanceCatalog.OLD_DAY)
        .contains("<b>expire</b>");
  }

  @Test
  void aHealthyTableSaysThereIsNothingToDo() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, asOf);
    t.files(t.table("s.t"), MaintenanceCatalog.OLD_DAY, 1, 2);

    assertThat(render("s.t"))
        .contains("<h2>Maintenance</h2>")
        .contains("Nothing to do: the table is within its policy.")
        .doesNotContain("Plan: top items");
  }

  @Test
  void anUnreadablePolicyIsShownInsteadOfFailingTheReport() {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, asOf);
    Table table = t.table("s.t");
    t.set(table, Map.of(MaintenancePolicy.STRATEGY, "hilbert"));

    assertThat(render("s.t"))
        .contains("Cannot read the maintenance policy")
        .contains("floe.maintain.strategy=hilbert");
  }

  private String render(String name) {
    return ReportHtml.render(Report.of(catalog.catalog(), name).asOf(asOf).build());
  }
}
