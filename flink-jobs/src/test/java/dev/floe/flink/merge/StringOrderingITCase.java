package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
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
 * A string ordering column compares as every engine reading the table compares strings, by code
 * point (Flink SQL, Spark, Iceberg's own comparators), not in Java's UTF-16 order, which puts
 * U+FFFD after an emoji: the newer row wins between source and target and among the source's rows
 * of one key.
 */
class StringOrderingITCase {
  private static final String REPLACEMENT = "\uFFFD";
  private static final String EMOJI = "\uD83D\uDE00"; // U+1F600, after U+FFFD by code point
  private static final Schema DIM =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "payload", Types.StringType.get()),
              Types.NestedField.required(3, "ver", Types.StringType.get())),
          Set.of(1));

  @TempDir Path home;
  private CatalogConfig config;
  private TableEnvironment sql;

  @BeforeEach
  void createTables() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      for (String name : List.of("dim", "staging")) {
        catalog.createTable(TableIdentifier.of("sales", name), DIM, PartitionSpec.unpartitioned());
      }
    } finally {
      Catalogs.close(catalog);
    }
    sql = FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    sql.executeSql(
            "INSERT INTO sales.dim VALUES (1, 'target-old', '"
                + REPLACEMENT
                + "'), (2, 'target-new', '"
                + EMOJI
                + "')")
        .await();
    sql.executeSql(
            "INSERT INTO sales.staging VALUES (1, 'source-newer', '"
                + EMOJI
                + "'), (2, 'source-older', '"
                + REPLACEMENT
                + "'), (3, 'older-of-two', '"
                + REPLACEMENT
                + "'), (3, 'newer-of-two', '"
                + EMOJI
                + "')")
        .await();
  }

  @Test
  void theGreaterStringByCodePointWinsAsFlinkSqlComparesIt() throws Exception {
    // The independent reference: Flink SQL's runtime comparison of the two stored values (its
    // planner folds literals with Java's compareTo, so they are read from the tables).
    try (CloseableIterator<Row> compared =
        sql.executeSql(
                "SELECT s.ver > t.ver FROM sales.staging s JOIN sales.dim t ON s.id = t.id"
                    + " WHERE s.id = 1")
            .collect()) {
      assertThat(compared.next().getField(0)).isEqualTo(true);
    }

    SliceJob.run(
        RunRequest.of(
            config,
            ExampleTables.job(
                "job: m\ntarget: sales.dim\nmode: merge\nordering: ver\nquery: SELECT id,"
                    + " payload, ver FROM sales.staging"),
            null));

    assertThat(payloads(load("sales.dim")))
        .containsExactlyEntriesOf(
            new TreeMap<>(Map.of(1L, "source-newer", 2L, "target-new", 3L, "newer-of-two")));
  }

  private Table load(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static Map<Long, String> payloads(Table table) throws IOException {
    Map<Long, String> payloads = new TreeMap<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      rows.forEach(r -> payloads.put((Long) r.getField("id"), (String) r.getField("payload")));
    }
    return payloads;
  }
}
