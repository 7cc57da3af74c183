package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose fixed(4) key occurs twice must fail its unique check. */
class UniqueCheckOnFixedKeysITCase {
  @TempDir Path home;

  private static final Schema CODES =
      new Schema(
          Types.NestedField.optional(1, "code", Types.FixedType.ofLength(4)),
          Types.NestedField.optional(2, "order_date", Types.DateType.get()));

  @Test
  void aDuplicatedFixedKeyFailsTheRun() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(TableIdentifier.of("sales", "staging_codes"), CODES);
      catalog.createTable(
          TableIdentifier.of("sales", "fact_codes"),
          CODES,
          PartitionSpec.builderFor(CODES).identity("order_date").build(),
          Map.of("format-version", "2"));
    } finally {
      Catalogs.close(catalog);
    }
    ExampleTables seed = new ExampleTables(config);
    seed.sql(
        "INSERT INTO sales.staging_codes VALUES (X'01020304', DATE '2026-10-03'),"
            + " (X'01020304', DATE '2026-10-03'), (X'05060708', DATE '2026-10-03')");
    String manifest =
        """
        job: codes_daily
        target: sales.fact_codes
        mode: overwrite
        slice: {column: order_date}
        query: |
          SELECT code, order_date FROM sales.staging_codes
          WHERE order_date >= :slice_start AND order_date < :slice_end
        checks:
          - unique: [code]
        """;

    assertThatThrownBy(
            () -> SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), "2026-10-03")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("unique: [code] failed: 1 duplicated keys");
  }
}
