package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.maintain.Compaction;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column defaults of format v3 that Flink would lose are refused: a column added with an initial
 * default read through Flink's source came back NULL from the files written before it was added (a
 * job's query and {@code floe sql} alike, with a content hash matching the NULLs written), and an
 * {@code INSERT} leaving out a column with a write default stored NULL.
 */
class ColumnDefaultsITCase {
  private static final Schema KV =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "v", Types.StringType.get()));
  private static final String DAY = "2026-10-03";

  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void aSourceWhoseColumnCWasAddedWithDefault42AfterItsRows() {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      PartitionSpec byDay = PartitionSpec.builderFor(KV).identity("d").build();
      Table src =
          catalog.createTable(
              TableIdentifier.of("sales", "src"), KV, byDay, Map.of("format-version", "3"));
      TableRows.append(src, row(src, 1, "a"), row(src, 2, "b"));
      TableRows.append(src, row(src, 3, "c"));
      src.updateSchema().addColumn("c", Types.IntegerType.get(), Literal.of(42)).commit();
      catalog.createTable(
          TableIdentifier.of("sales", "target"),
          src.schema(),
          PartitionSpec.builderFor(src.schema()).identity("d").build(),
          Map.of("format-version", "3"));
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aJobReadingFilesWrittenBeforeADefaultedColumnIsRefusedUntilTheyHoldIt() {
    String job =
        "job: copy\ntarget: sales.target\nslice: {column: d}\nquery: |\n"
            + "  SELECT id, d, v, c FROM sales.src WHERE d >= :slice_start AND d < :slice_end\n";

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(job), DAY)))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot run copy: column c of sales.src has an initial default (42), which Iceberg's"
                + " Flink reader reads as NULL in data files written before the column was added;"
                + " ")
        .hasMessageEndingWith(
            " holds c (it has no value count for it): rewrite such files as Parquet or ORC with"
                + " metrics for c (Avro files have none; with write.metadata.metrics.default=none"
                + " set write.metadata.metrics.column.c=counts), as floe maintain --compact does"
                + " for small files")
        .hasMessageNotContaining("\n");
    assertThat(load("sales.target").currentSnapshot()).isNull();

    // Compaction reads them with Iceberg's own reader and writes the 42 into the new file.
    Compaction.of(config, "sales.src").slices(List.of(DAY)).commit();
    SliceJob.run(RunRequest.of(config, ExampleTables.job(job), DAY));

    assertThat(rows(load("sales.target"))).containsExactly("1 a 42", "2 b 42", "3 c 42");
  }

  @Test
  void aFileCommittedAfterTheColumnWasAddedButWrittenWithoutItIsRefused() {
    // A writer that began before the column was added commits after it: the snapshot that added
    // the file has the column, the file does not (Iceberg reads 42, Flink NULL). Only a value
    // count proves a file holds the column.
    Catalog catalog = Catalogs.open(config);
    try {
      Table late =
          catalog.createTable(
              TableIdentifier.of("sales", "late"),
              KV,
              PartitionSpec.builderFor(KV).identity("d").build(),
              Map.of("format-version", "3"));
      org.apache.iceberg.DataFile written = TableRows.write(late, row(late, 1, "a"));
      late.updateSchema().addColumn("c", Types.IntegerType.get(), Literal.of(42)).commit();
      late.newAppend().appendFile(written).commit();
      assertThat(rows(late)).containsExactly("1 a 42");
    } finally {
      Catalogs.close(catalog);
    }
    String job =
        "job: copy\ntarget: sales.target\nslice: {column: d}\nquery: |\n"
            + "  SELECT id, d, v, c FROM sales.late WHERE d >= :slice_start AND d < :slice_end\n";

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(job), DAY)))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column c of sales.late has an initial default (42)");
    assertThat(load("sales.target").currentSnapshot()).isNull();
  }

  @Test
  void sqlRefusesReadingSuchATableAndAnInsertLeavingOutAColumnWithAWriteDefault() {
    SqlRunner sql =
        new SqlRunner(
            FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config), config);

    // floe sql may read any snapshot of it (a branch, a tag), whose files a check of the current
    // one does not see: it reads no such table.
    assertThatThrownBy(() -> sql.run(SqlScript.fromCommandLine("SELECT * FROM sales.src")))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): column c of sales.src has an"
                + " initial default (42), which Iceberg's Flink reader reads as NULL in data files"
                + " written before the column was added; floe sql reads no such table (floe run"
                + " does, once every live file holds the column)");
    assertThatThrownBy(
            () ->
                sql.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.src (id, d, v) VALUES (4, DATE '" + DAY + "', 'd')")))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): column c of sales.src has"
                + " a write default (42), which Flink's INSERT does not fill in (it stores NULL);"
                + " name the column and its value");
    sql.run(
        SqlScript.fromCommandLine(
            "INSERT INTO sales.src (id, d, v, c) VALUES (4, DATE '" + DAY + "', 'd', 7)"));
    sql.run(
        SqlScript.fromCommandLine("INSERT INTO sales.src VALUES (5, DATE '" + DAY + "', 'e', 8)"));

    assertThat(rows(load("sales.src")))
        .containsExactly("1 a 42", "2 b 42", "3 c 42", "4 d 7", "5 e 8");
  }

  private static Record row(Table table, long id, String v) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(DAY), "v", v));
  }

  private Table load(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Rows as {@code id v c}, read with Iceberg's own reader (which supplies initial defaults). */
  private static List<String> rows(Table table) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(
          r -> rows.add(r.getField("id") + " " + r.getField("v") + " " + r.getField("c")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }
}
