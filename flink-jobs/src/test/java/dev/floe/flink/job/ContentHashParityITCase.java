package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writers hash Flink RowData; no-op detection and verification hash Iceberg records read back
 * from the table. Both must give the same hash for every supported type, or a rerun would commit
 * needlessly (or, worse, a changed slice would look unchanged). (A {@code time} column is refused
 * on this path: see EveryTypeExactITCase.)
 */
class ContentHashParityITCase {
  private static final Schema ALL_TYPES =
      new Schema(
          Types.NestedField.required(1, "d", Types.DateType.get()),
          Types.NestedField.optional(2, "b", Types.BooleanType.get()),
          Types.NestedField.optional(3, "i", Types.IntegerType.get()),
          Types.NestedField.optional(4, "f", Types.FloatType.get()),
          Types.NestedField.optional(5, "db", Types.DoubleType.get()),
          Types.NestedField.optional(7, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(8, "tz", Types.TimestampType.withZone()),
          Types.NestedField.optional(9, "s", Types.StringType.get()),
          Types.NestedField.optional(10, "dc", Types.DecimalType.of(5, 2)),
          Types.NestedField.optional(11, "dw", Types.DecimalType.of(38, 10)),
          Types.NestedField.optional(12, "bin", Types.BinaryType.get()),
          Types.NestedField.optional(13, "fx", Types.FixedType.ofLength(3)),
          Types.NestedField.optional(14, "u", Types.UUIDType.get()),
          Types.NestedField.optional(15, "l", Types.LongType.get()));

  private static final String JOB =
      """
      job: all_types
      target: sales.all_types
      slice: {column: d}
      query: |
        SELECT * FROM (VALUES
         (DATE '2026-10-03', TRUE, 1, CAST('-0.0' AS FLOAT), CAST('NaN' AS DOUBLE),
          CAST('2026-10-03 01:02:03.123456' AS TIMESTAMP(6)),
          CAST(TO_TIMESTAMP_LTZ(1791000000123, 3) AS TIMESTAMP_LTZ(6)),
          CAST('h\u00e9llo \u2603' AS STRING), CAST(1.5 AS DECIMAL(5, 2)),
          CAST('-12345678901234567890.0123456789' AS DECIMAL(38, 10)), CAST(X'0102' AS BYTES),
          CAST(X'010203' AS BINARY(3)), CAST(X'00112233445566778899aabbccddeeff' AS BINARY(16)),
          CAST(-9223372036854775808 AS BIGINT)),
         (DATE '2026-10-03', CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST('1.0E-45' AS FLOAT),
          CAST('-0.0' AS DOUBLE),
          CAST('1969-12-31 23:59:59.999999' AS TIMESTAMP(6)), CAST(NULL AS TIMESTAMP_LTZ(6)),
          CAST('' AS STRING), CAST(-0.01 AS DECIMAL(5, 2)), CAST(0 AS DECIMAL(38, 10)),
          CAST(X'' AS BYTES), CAST(NULL AS BINARY(3)), CAST(NULL AS BINARY(16)),
          CAST(NULL AS BIGINT))
        ) AS v(d, b, i, f, db, ts, tz, s, dc, dw, bin, fx, u, l)
        WHERE d >= :slice_start AND d < :slice_end
      """;

  @TempDir Path home;

  @Test
  void theWritersHashEqualsAScanOfTheTableForEveryTypeAndTheRerunIsANoOp() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(
          TableIdentifier.of("sales", "all_types"),
          ALL_TYPES,
          PartitionSpec.builderFor(ALL_TYPES).identity("d").build(),
          Map.of("format-version", "2"));

      RunResult first = SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), "2026-10-03"));
      Table table = Catalogs.loadTable(catalog, "sales.all_types");
      // --recompute: the job runs, and its committer finds the same hash in the lineage.
      RunResult second =
          SliceJob.run(
              RunRequest.of(config, ExampleTables.job(JOB), "2026-10-03")
                  .withOptions(o -> o.recompute(true)));

      assertThat(first.outcome().rows()).isEqualTo(2);
      assertThat(TableContent.hash(table).encode()).isEqualTo(first.outcome().contentHash());
      assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
      assertThat(second.outcome().detail()).contains("found by lineage");
    } finally {
      Catalogs.close(catalog);
    }
  }
}
