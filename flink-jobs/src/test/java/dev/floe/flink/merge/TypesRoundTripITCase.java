package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values survive the keyed and swap paths exactly: timestamptz and timestamp to the microsecond,
 * decimals with their scale (12.30 stays 12.30), and the hash the committer records equals the hash
 * of a scan of what it wrote.
 */
class TypesRoundTripITCase {
  private static final Schema TYPED =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "happened_at", Types.TimestampType.withZone()),
              Types.NestedField.optional(3, "local_at", Types.TimestampType.withoutZone()),
              Types.NestedField.optional(4, "amount", Types.DecimalType.of(10, 2)),
              Types.NestedField.optional(5, "big", Types.DecimalType.of(38, 10)),
              Types.NestedField.optional(6, "d", Types.DateType.get())),
          Set.of(1));

  private static final String QUERY =
      "SELECT id, happened_at, local_at, amount, big, d FROM sales.typed_staging";

  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void createTables() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      for (String name : List.of("typed_staging", "typed_merge", "typed_swap")) {
        catalog.createTable(
            TableIdentifier.of("sales", name), TYPED, PartitionSpec.unpartitioned());
      }
    } finally {
      Catalogs.close(catalog);
    }
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql(
            "INSERT INTO sales.typed_staging VALUES (1,"
                + " CAST(TIMESTAMP '2026-10-03 12:34:56.123456' AS TIMESTAMP_LTZ(6)),"
                + " TIMESTAMP '2026-10-03 23:59:59.999999', CAST(12.30 AS DECIMAL(10, 2)),"
                + " CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38, 10)),"
                + " DATE '1969-12-31'), (2,"
                + " CAST(TIMESTAMP '1969-12-31 23:59:59.000001' AS TIMESTAMP_LTZ(6)),"
                + " CAST(NULL AS TIMESTAMP(6)), CAST(-0.01 AS DECIMAL(10, 2)),"
                + " CAST(0 AS DECIMAL(38, 10)), CAST(NULL AS DATE))")
        .await();
  }

  @Test
  void mergeAndSwapKeepEveryValueExactlyAndTheirRerunsAreNoOps() throws IOException {
    String merge =
        "job: m\ntarget: sales.typed_merge\nmode: merge\nordering: happened_at\nquery: " + QUERY;
    String swap = "job: s\ntarget: sales.typed_swap\nmode: swap\nquery: " + QUERY;
    for (String manifest : List.of(merge, swap)) {
      SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), null));
      // Equal values must hash equal after the round trip, or a rerun would commit again.
      assertThat(
              SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), null))
                  .outcome()
                  .status())
          .isEqualTo(dev.floe.flink.commit.CommitOutcome.Status.NO_OP);
    }

    for (String name : List.of("sales.typed_merge", "sales.typed_swap")) {
      Table table = load(name);
      List<Record> rows = rows(table);
      assertThat(rows).hasSize(2);
      Record one = rows.get(0);
      assertThat(one.getField("happened_at"))
          .isEqualTo(OffsetDateTime.parse("2026-10-03T12:34:56.123456Z"));
      assertThat(one.getField("local_at"))
          .isEqualTo(LocalDateTime.parse("2026-10-03T23:59:59.999999"));
      assertThat(one.getField("amount").toString()).isEqualTo("12.30");
      assertThat(one.getField("big"))
          .isEqualTo(new BigDecimal("1234567890123456789012345678.0123456789"));
      assertThat(one.getField("d")).isEqualTo(LocalDate.parse("1969-12-31"));
      assertThat(rows.get(1).getField("happened_at"))
          .isEqualTo(OffsetDateTime.parse("1969-12-31T23:59:59.000001Z"));
      assertThat(rows.get(1).getField("local_at")).isNull();
      assertThat(rows.get(1).getField("amount").toString()).isEqualTo("-0.01");
      assertThat(((BigDecimal) rows.get(1).getField("big")).scale()).isEqualTo(10);
      // The hash the committer recorded is the hash of an independent scan.
      assertThat(table.currentSnapshot().summary())
          .containsEntry("floe.content-hash", TableContent.hash(table).encode());
    }
  }

  private Table load(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static List<Record> rows(Table table) throws IOException {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.copy()));
    }
    rows.sort((a, b) -> Long.compare((Long) a.getField("id"), (Long) b.getField("id")));
    return rows;
  }
}
