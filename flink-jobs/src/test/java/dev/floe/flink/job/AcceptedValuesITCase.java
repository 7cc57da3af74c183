package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code accepted_values} compares values of the column's type, as SQL's {@code IN} would: a
 * decimal 1.50 is the accepted 1.5, a timestamp is accepted however its text is spelled, and a
 * value the column cannot hold is refused when the job is planned.
 */
class AcceptedValuesITCase {
  private static final String QUERY =
      "query: SELECT CAST(1 AS BIGINT) AS id, CAST(TIMESTAMP '2026-10-04 10:00:00' AS"
          + " TIMESTAMP(6)) AS ts,"
          + " CAST(TIMESTAMP '2026-10-04 10:00:00' AS TIMESTAMP_LTZ(6)) AS tz,"
          + " CAST(1.5 AS DECIMAL(10, 2)) AS amt, DATE '2026-10-04' AS d, TRUE AS ok,"
          + " CAST(-0.0 AS DOUBLE) AS x, 7 AS small, CAST(16777216 AS FLOAT) AS f,"
          + " CAST(ROW(1) AS ROW<a INT>) AS st\n";

  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void createTable() {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(
          TableIdentifier.of("sales", "f"),
          new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()),
              Types.NestedField.optional(3, "tz", Types.TimestampType.withZone()),
              Types.NestedField.optional(4, "amt", Types.DecimalType.of(10, 2)),
              Types.NestedField.optional(5, "d", Types.DateType.get()),
              Types.NestedField.optional(6, "ok", Types.BooleanType.get()),
              Types.NestedField.optional(7, "x", Types.DoubleType.get()),
              Types.NestedField.optional(8, "small", Types.IntegerType.get()),
              Types.NestedField.optional(9, "f", Types.FloatType.get()),
              Types.NestedField.optional(
                  10,
                  "st",
                  Types.StructType.of(
                      Types.NestedField.optional(11, "a", Types.IntegerType.get())))),
          PartitionSpec.unpartitioned());
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void valuesAreComparedAsValuesOfTheColumnsTypeNotAsText() {
    String job =
        "job: f\ntarget: sales.f\nmode: swap\n"
            + QUERY
            + "checks:\n"
            + "  - accepted_values: {column: ts, values: ['2026-10-04 10:00:00.000000']}\n"
            + "  - accepted_values: {column: ts, values: ['2026-10-04T10:00']}\n"
            + "  - accepted_values: {column: tz, values: ['2026-10-04 12:00:00+02:00']}\n"
            + "  - accepted_values: {column: amt, values: [1.5, 2]}\n"
            + "  - accepted_values: {column: d, values: ['2026-10-04']}\n"
            + "  - accepted_values: {column: ok, values: ['TRUE']}\n"
            + "  - accepted_values: {column: x, values: [0.0]}\n"
            + "  - accepted_values: {column: small, values: [007]}\n"
            + "  - accepted_values: {column: f, values: [16777216.0]}\n"
            + "  - accepted_values: {column: amt, values: [1.500000]}\n";

    RunResult result = SliceJob.run(RunRequest.of(config, ExampleTables.job(job), null));

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
  }

  @Test
  void aValueOutsideTheListStillFailsTheCheck() {
    String job =
        "job: f\ntarget: sales.f\nmode: swap\n"
            + QUERY
            + "checks:\n  - accepted_values: {column: amt, values: [1.51, 15]}\n";

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(job), null)))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("accepted_values: {column: amt, values: [1.51, 15]} failed: 1 rows");
    assertThat(load().currentSnapshot()).isNull();
  }

  @Test
  void aValueTheColumnCannotHoldIsRefusedWhenTheJobIsPlanned() {
    for (List<String> bad :
        List.of(
            List.of("d", "'2026-13-01'", "is not a date"),
            List.of("amt", "abc", "is not a decimal(10, 2)"),
            List.of("tz", "'2026-10-04 10:00:00'", "give an offset"),
            List.of("amt", "1.505", "more digits than the column holds"),
            List.of("amt", "123456789.5", "more digits than the column holds"),
            List.of("amt", "1e999999999", "more digits than the column holds"),
            List.of("amt", "123456789", "more digits than the column holds"),
            List.of("id", "9223372036854775808", "is not a bigint"),
            List.of("small", "3000000000", "out of the column's range"),
            List.of("x", "0.1e400", "no double is exactly that"),
            List.of("f", "16777217", "no float is exactly that"),
            List.of("st.a", "1", "a field inside a column"))) {
      String job =
          "job: f\ntarget: sales.f\nmode: swap\n"
              + QUERY
              + "checks:\n  - accepted_values: {column: "
              + bad.get(0)
              + ", values: ["
              + bad.get(1)
              + "]}\n";

      assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(job), null)))
          .as(bad.toString())
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("at 'checks[0]'")
          .hasMessageContaining(bad.get(2));
    }
    assertThat(load().currentSnapshot()).isNull();
  }

  private Table load() {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, "sales.f");
    } finally {
      Catalogs.close(catalog);
    }
  }
}
