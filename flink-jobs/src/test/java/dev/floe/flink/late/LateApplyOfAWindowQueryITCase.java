package dev.floe.flink.late;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.window.AsOf;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose query reads the day before its slice (a two-day rolling count): a row arriving late
 * for Oct 2 changes the slices Oct 2 and Oct 3. The slice's own column cannot tell that, so the
 * late rows of every slice whose source changed are unknown and the open ones are rerun: the table
 * ends as runs of each slice would leave it, read from its files.
 */
class LateApplyOfAWindowQueryITCase {
  private static final String ROLLING =
      """
      job: rolling_2d
      target: sales.rolling_2d
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT CAST(:slice_start AS DATE) AS order_date, COUNT(*) AS n
        FROM sales.staging_orders
        WHERE order_date >= :slice_start - INTERVAL '1' DAY AND order_date < :slice_end
      """;

  @TempDir Path home;

  @Test
  void aLateRowReloadsEverySliceWhoseWindowHoldsIt() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    LateTables tables = LateTables.create(config, "P30D", "report");
    Schema rolling =
        new Schema(
            Types.NestedField.required(1, "order_date", Types.DateType.get()),
            Types.NestedField.optional(2, "n", Types.LongType.get()));
    Catalog catalog = Catalogs.open(config);
    try {
      catalog.createTable(
          TableIdentifier.of("sales", "rolling_2d"),
          rolling,
          PartitionSpec.builderFor(rolling).identity("order_date").build(),
          Map.of(
              "format-version",
              "2",
              FloeTableProperties.LATE_DATA_WINDOW,
              "P30D",
              FloeTableProperties.LATE_DATA_AFTER_WINDOW,
              "report"));
    } finally {
      Catalogs.close(catalog);
    }
    JobSpec job = JobSpecParser.parse(Manifests.parse("jobs/rolling.yaml", ROLLING), ROLLING);
    List<String> days = List.of("2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04");
    days.forEach(day -> tables.arrive(day, 2));
    days.forEach(day -> SliceJob.run(RunRequest.of(config, job, day)));
    assertThat(counts(config)).containsExactly(2L, 4L, 4L, 4L);

    tables.arrive("2026-10-02", 1);
    LateApply.of(config, job).asOf(AsOf.parse("--as-of", "2026-10-05")).run();

    assertThat(counts(config)).containsExactly(2L, 5L, 5L, 4L);
  }

  private static List<Long> counts(CatalogConfig config) {
    Catalog catalog = Catalogs.open(config);
    Map<LocalDate, Long> byDay = new TreeMap<>();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(Catalogs.loadTable(catalog, "sales.rolling_2d")).build()) {
      rows.forEach(r -> byDay.put((LocalDate) r.getField("order_date"), (Long) r.getField("n")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      Catalogs.close(catalog);
    }
    return List.copyOf(byDay.values());
  }
}
