package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table property Iceberg cannot parse, set outside `floe tables apply` (which refuses it): a run
 * or a `floe sql` INSERT is refused before it writes anything, instead of failing at the commit
 * (exit 5, or Iceberg's own message with exit 1) with its files left behind.
 */
class UnparseableTablePropertyITCase {
  @TempDir Path home;

  @Test
  void aRunOnATableWithAnUnparseablePropertyIsRefusedBeforeWritingAnything() throws Exception {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    CliRun seed =
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03')");
    assertThat(seed.exitCode()).as(seed.err()).isZero();
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table table = Catalogs.loadTable(catalog, "sales.fact_orders");
      table.updateProperties().set("write.summary.partition-limit", "x").commit();
    } finally {
      Catalogs.close(catalog);
    }

    CliRun run =
        floe(
            home,
            "run",
            examples().resolve("jobs/fact_orders_daily.yaml").toString(),
            "--slice",
            "2026-10-03");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .contains(
            "Cannot run fact_orders_daily: property write.summary.partition-limit of"
                + " sales.fact_orders: expected a whole number up to 2147483647",
            "got 'x'");
    Path data = home.resolve("warehouse/sales/fact_orders/data");
    try (Stream<Path> files = Files.exists(data) ? Files.walk(data) : Stream.empty()) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }

  @Test
  void anInsertOfFloeSqlIntoATableWithAnUnparseablePropertyIsRefusedBeforeWritingAnything()
      throws Exception {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table table = Catalogs.loadTable(catalog, "sales.staging_orders");
      table.updateProperties().set("write.summary.partition-limit", "x").commit();
    } finally {
      Catalogs.close(catalog);
    }

    CliRun insert =
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03')");

    assertThat(insert.exitCode()).as(insert.err()).isEqualTo(2);
    assertThat(insert.err())
        .contains(
            "Cannot run SQL statement 1 (line 1 of the command line): property"
                + " write.summary.partition-limit of sales.staging_orders: expected a whole"
                + " number up to 2147483647",
            "got 'x'");
    Path data = home.resolve("warehouse/sales/staging_orders/data");
    try (Stream<Path> files = Files.exists(data) ? Files.walk(data) : Stream.empty()) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
  }
}
