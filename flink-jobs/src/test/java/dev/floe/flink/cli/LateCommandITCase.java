package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.FloeTableProperties;
import java.nio.file.Path;
import java.time.LocalDate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe late plan` and `floe late apply` after real `floe run`s of the example job (P3D, report),
 * as an operator drives them: late rows for two open days, one of which fails its check on rerun;
 * then the days seal and a later straggler is only reported.
 */
class LateCommandITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OCT3 = "2026-10-03";
  private static final String OCT4 = "2026-10-04";

  @TempDir Path home;

  @Test
  void lateRowsAreRerunWhileOpenAFailureIsReportedAndSealedDaysAreMarked() throws Exception {
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    ok(floe(home, "tables", "apply", examples().resolve("tables").toString()));
    ok(floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString()));
    ok(floe(home, "run", job, "--slice", OCT3));
    ok(floe(home, "run", job, "--slice", OCT4));
    // Oct 3 gets a good late order; Oct 4 one without an amount, which not_null refuses.
    ok(
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (4, 13, 30.00, DATE '2026-10-03'),"
                + " (5, 14, CAST(NULL AS DECIMAL(10, 2)), DATE '2026-10-04')"));
    ContentHash oct4 = checksum(day(OCT4));

    CliRun plan = ok(floe(home, "late", "plan", job, "--as-of", "2026-10-05"));
    ContentHash table = checksum(Expressions.alwaysTrue());
    CliRun dryRun = ok(floe(home, "late", "apply", job, "--as-of", "2026-10-05", "--dry-run"));
    ContentHash afterDryRun = checksum(Expressions.alwaysTrue());
    CliRun apply = floe(home, "late", "apply", job, "--as-of", "2026-10-05");

    assertThat(plan.out())
        .contains("  2026-10-03   open    1          rerun             sales.staging_orders ")
        .contains("  2026-10-04   open    1          rerun             sales.staging_orders ")
        .contains("(2 slices to rerun)");
    assertThat(dryRun.out()).contains("would rerun 2 slices");
    assertThat(afterDryRun).isEqualTo(table);
    assertThat(apply.exitCode()).as(apply.out() + apply.err()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(apply.out())
        .containsPattern("  2026-10-03   rerun             committed  3        \\d+\n")
        .contains("  2026-10-04   rerun             failed     -        -\n")
        .contains("not_null: [order_id, amount] failed: 1 rows")
        .contains("  1 of 2 reruns failed (exit 3)\n");
    assertThat(checksum(day(OCT3)).rows()).isEqualTo(3);
    assertThat(checksum(day(OCT4))).isEqualTo(oct4);

    // As of Oct 8 both days are sealed. A straggler for Oct 3 is reported, not loaded.
    ok(
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (6, 15, 40.00, DATE '2026-10-03')"));
    ContentHash beforeSealed = checksum(Expressions.alwaysTrue());
    CliRun sealed = ok(floe(home, "late", "apply", job, "--as-of", "2026-10-08", "--json"));
    ContentHash afterSealed = checksum(Expressions.alwaysTrue());
    // As of Oct 6 both windows are open again, but both days end before the marker: they stay
    // sealed, nothing is rerun, and the marker stays.
    CliRun earlier = ok(floe(home, "late", "apply", job, "--as-of", "2026-10-06", "--json"));
    ContentHash afterEarlier = checksum(Expressions.alwaysTrue());

    JsonNode json = JSON.readTree(sealed.out());
    assertThat(json.get("reruns")).isEmpty();
    assertThat(json.get("slices").get(0).get("action").asText()).isEqualTo("report");
    assertThat(json.get("slices").get(0).get("late_rows").asLong()).isEqualTo(1);
    assertThat(json.get("slices").get(1).get("action").asText()).isEqualTo("report");
    assertThat(json.get("sealed_through_before").isNull()).isTrue();
    assertThat(json.get("sealed_through_after").asText()).isEqualTo("2026-10-05");
    assertThat(afterSealed).isEqualTo(beforeSealed);
    // An apply with an older as-of neither reruns a day behind the marker nor moves it back.
    JsonNode earlierJson = JSON.readTree(earlier.out());
    assertThat(earlierJson.get("reruns")).isEmpty();
    assertThat(earlierJson.get("exit_code").asInt()).isZero();
    for (JsonNode slice : earlierJson.get("slices")) {
      assertThat(slice.get("state").asText()).isEqualTo("sealed");
      assertThat(slice.get("note").asText()).contains("sealed by floe.sealed-through=2026-10-05");
    }
    assertThat(afterEarlier).isEqualTo(afterSealed);
    assertThat(earlierJson.get("sealed_through_after").asText()).isEqualTo("2026-10-05");
    assertThat(fact().properties()).containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-05");
    // A scheduler reads the marker through floe sql, too, which masks the catalog's secrets
    // Iceberg's catalog writes into the table's options.
    assertThat(
            ok(floe(
                    home,
                    "sql",
                    "--catalog-property=s3.secret-access-key=TOPSECRET123",
                    "--catalog-property=header.x-api-key=20261206",
                    "SHOW CREATE TABLE sales.fact_orders"))
                .out())
        .contains("'floe.sealed-through' = '2026-10-05'")
        .contains("'src-catalog' = '******'")
        .doesNotContain("TOPSECRET123")
        .doesNotContain("20261206");
  }

  private static CliRun ok(CliRun run) {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    return run;
  }

  private Table fact() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return Catalogs.loadTable(catalog, "sales.fact_orders");
    } finally {
      Catalogs.close(catalog);
    }
  }

  private ContentHash checksum(Expression filter) {
    return TableContent.hash(fact(), filter);
  }

  private static Expression day(String day) {
    return Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay());
  }
}
