package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe backfill MANIFEST` with one end of the range from a flag and the other from the backfill
 * manifest: a range that is none is refused naming where each end came from, the flag or the file
 * and key, and changes nothing. The range is refused while planning: no Flink job runs.
 */
class BackfillRangeSourcesTest {
  @TempDir Path home;
  @TempDir Path project;
  private CatalogConfig config;
  private Path backfills;

  @BeforeEach
  void ordersAndTheirJob() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-10-01"), 3, 2);
    Files.writeString(
        Files.createDirectories(project.resolve("jobs")).resolve("fact_orders.yaml"),
        ExampleTables.BACKFILL_JOB);
    backfills = Files.createDirectories(project.resolve("backfills"));
  }

  @Test
  void aStartFlagAfterTheManifestsEndIsRefusedNamingTheFlagAndTheFilesKey() throws Exception {
    Path manifest = manifest("to-only.yaml", "to: 2026-10-01");
    String before = metadata();

    CliRun run = floe(home, "backfill", manifest.toString(), "--from", "2026-10-09");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .isEqualTo(
            "floe: Cannot backfill sales.fact_orders from 2026-10-09 to 2026-10-01: the range is"
                + " empty; its end ("
                + manifest
                + ": to: 2026-10-01) is exclusive and must come after its start (--from"
                + " 2026-10-09)"
                + System.lineSeparator());
    assertThat(run.out()).isEmpty();
    assertThat(metadata()).isEqualTo(before);
  }

  @Test
  void anEndFlagBeforeTheManifestsStartIsRefusedNamingTheFilesKeyAndTheFlag() throws Exception {
    Path manifest = manifest("from-only.yaml", "from: 2026-10-09");
    String before = metadata();

    CliRun run =
        floe(home, "backfill", manifest.toString(), "--to", "2026-10-01", "--dry-run", "--json");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .contains(
            "Cannot backfill sales.fact_orders from 2026-10-09 to 2026-10-01: the range is empty;"
                + " its end (--to 2026-10-01) is exclusive and must come after its start ("
                + manifest
                + ": from: 2026-10-09)");
    assertThat(metadata()).isEqualTo(before);
  }

  @Test
  void endsOfTwoUnitsAreRefusedNamingWhereEachCameFrom() throws Exception {
    Path manifest = manifest("to-only.yaml", "to: 2026-10-05");

    CliRun run = floe(home, "backfill", manifest.toString(), "--from", "2026-10");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(run.err())
        .contains(
            "Cannot backfill sales.fact_orders from 2026-10 to 2026-10-05: both ends must be"
                + " slices of the same unit, got a month and a day (--from 2026-10, "
                + manifest
                + ": to: 2026-10-05)");
  }

  private Path manifest(String name, String rangeLine) throws Exception {
    return Files.writeString(
        backfills.resolve(name), "job: ../jobs/fact_orders.yaml\n" + rangeLine + "\n");
  }

  /** The target's current metadata file: any commit or property change moves it. */
  private String metadata() {
    Catalog catalog = Catalogs.open(config);
    try {
      return ((BaseTable) Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS))
          .operations()
          .current()
          .metadataFileLocation();
    } finally {
      Catalogs.close(catalog);
    }
  }
}
