package dev.floe.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.it.catalogs.InProcessFloe;
import dev.floe.it.servers.ServerPaths;
import dev.floe.testservers.spark.CanonicalValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * An embedded Floe home that Floe (in this JVM, through bin/floe's entry point) and Spark (its own
 * JVM, the same SQLite catalog and warehouse) both work on; rows are compared in {@link
 * CanonicalValue}'s form, as sorted lists (multisets: a duplicate row counts).
 */
final class FloeHome {
  private static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;
  final InProcessFloe floe;
  final CatalogConfig config;
  final SparkEngine spark;

  /** The name of this home's catalog in Spark. */
  final String catalog;

  FloeHome(Path dir, SparkEngine spark) {
    try {
      String name = spark.newCatalogName();
      Path configFile =
          Files.writeString(
              dir.resolve("floe.yaml"), "catalog: {type: embedded, name: " + name + "}\n");
      this.dir = dir;
      this.floe = new InProcessFloe(configFile, dir.resolve(".floe"));
      this.config = CatalogConfigLoader.load(configFile, dir.resolve(".floe"), Map.of(), Map.of());
      this.spark = spark;
      this.catalog = name;
      spark.catalog(name, Catalogs.icebergProperties(config));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path examples() {
    return ServerPaths.repoRoot().resolve("examples");
  }

  /** {@code floe ...} that must exit 0; returns its stdout. */
  String ok(String... args) {
    InProcessFloe.Result result = floe.run(args);
    assertThat(result.exitCode()).as("floe %s\n%s", String.join(" ", args), result.both()).isZero();
    return result.out();
  }

  /** {@code floe ... --json} that must exit 0. */
  JsonNode okJson(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--json");
    try {
      return JSON.readTree(ok(all.toArray(String[]::new)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a file under the home's folder and returns its path. */
  Path file(String name, String text) {
    try {
      Path path = dir.resolve(name);
      Files.createDirectories(path.getParent());
      return Files.writeString(path, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A table's name in Spark: {@code <catalog>.<namespace>.<table>}. */
  String inSpark(String table) {
    return catalog + "." + table;
  }

  /** Every row Spark reads from {@code table} (a table name, or one with a Spark suffix). */
  List<String> sparkRows(String table) {
    return sorted(spark.sql("SELECT * FROM " + inSpark(table)));
  }

  /** The rows Spark reads matching a SQL condition. */
  List<String> sparkRows(String table, String where) {
    return sorted(spark.sql("SELECT * FROM " + inSpark(table) + " WHERE " + where));
  }

  /** Every row Iceberg's generic reader (Floe's content reader) gives at the table's head. */
  List<String> floeRows(String table) {
    return floeRows(table, Expressions.alwaysTrue());
  }

  List<String> floeRows(String table, Expression filter) {
    return withTable(
        table,
        t -> {
          List<String> rows = new ArrayList<>();
          if (t.currentSnapshot() == null) {
            return rows;
          }
          List<Types.NestedField> columns = t.schema().columns();
          try (CloseableIterable<Record> records = IcebergGenerics.read(t).where(filter).build()) {
            for (Record record : records) {
              List<Object> values = new ArrayList<>();
              for (int i = 0; i < columns.size(); i++) {
                values.add(record.get(i));
              }
              rows.add(CanonicalValue.row(values));
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return sorted(rows);
        });
  }

  <T> T withTable(String table, Function<Table, T> action) {
    Catalog opened = Catalogs.open(config);
    try {
      return action.apply(Catalogs.loadTable(opened, table));
    } finally {
      Catalogs.close(opened);
    }
  }

  static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }
}
