package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.cli.FloeMain;
import dev.floe.flink.testing.EqualityDeletes;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN rule 10 on ORC tables: ORC cannot store a timestamp in the second before 1970-01-01T00:00
 * (ORC-645; Iceberg's ORC writers would store it one second later). A run refuses such a value
 * before anything is committed, at the top of the row or nested, and writes every other timestamp
 * exactly, the edges of that second included; a revert copies a Parquet file as Parquet, so an ORC
 * table's restored rows keep such values.
 */
class OrcTimestampsITCase {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(
              4, "times", Types.ListType.ofOptional(5, Types.TimestampType.withZone())));
  private static final String DAY = "2026-10-03";
  private static final String JOB =
      "job: copy\ntarget: sales.t\nslice: {column: d}\nquery: |\n  SELECT * FROM sales.src"
          + " WHERE d >= :slice_start AND d < :slice_end\n";

  @TempDir Path home;
  private CatalogConfig config;
  private Catalog catalog;

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    catalog = Catalogs.open(config);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
    catalog.createTable(TableIdentifier.of("sales", "src"), SCHEMA, PartitionSpec.unpartitioned());
    catalog.createTable(
        TableIdentifier.of("sales", "t"),
        SCHEMA,
        PartitionSpec.builderFor(SCHEMA).identity("d").build(),
        Map.of("write.format.default", "orc"));
  }

  @Test
  void everyTimestampOutsideTheSecondBeforeTheEpochIsWrittenToOrcExactly() {
    List<Record> rows =
        List.of(
            row(1, "1969-12-31T23:59:59", "1969-12-31T23:59:58.500001Z"),
            row(2, "1969-12-31T23:59:58.999999", "1970-01-01T00:00:00Z"),
            row(3, "1970-01-01T00:00:00.000001", "1900-01-01T00:00:00.000001Z"),
            row(4, "2026-10-03T08:30:00.5", null));
    TableRows.append(load("sales.src"), rows.toArray(Record[]::new));

    SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), DAY));

    Table target = load("sales.t");
    assertThat(dataFormats(target)).containsOnly(FileFormat.ORC);
    assertThat(values(target)).containsExactlyInAnyOrderElementsOf(values(load("sales.src")));
  }

  @Test
  void aTimestampInTheSecondBeforeTheEpochIsRefusedAtTheTopOrNestedAndNothingIsCommitted()
      throws IOException {
    TableRows.append(load("sales.src"), row(1, "2026-10-03T00:00:00", "1969-12-31T23:59:59.5Z"));

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), DAY)))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining(
            "Cannot write 1969-12-31T23:59:59.500Z into column times.element of floe.sales.t: ORC"
                + " cannot store a timestamp in the second before 1970-01-01T00:00")
        .hasMessageContaining("write.format.default");
    assertThat(load("sales.t").currentSnapshot()).isNull();

    load("sales.src")
        .newDelete()
        .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
        .commit();
    TableRows.append(load("sales.src"), row(2, "1969-12-31T23:59:59.999999", null));
    Path manifest = home.resolve("copy.yaml");
    Files.writeString(manifest, JOB);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        FloeMain.execute(
            new String[] {"run", manifest.toString(), "--slice", DAY, "--home", home.toString()},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(exit).as(err.toString()).isEqualTo(3);
    assertThat(err.toString().strip())
        .startsWith(
            "floe: Cannot write 1969-12-31T23:59:59.999999 into column ts of floe.sales.t: ORC")
        .doesNotContain("\n");
    assertThat(load("sales.t").currentSnapshot()).isNull();
  }

  @Test
  void aRevertOnATableNowWrittenAsOrcCopiesAParquetFileAsParquetAndKeepsItsTimestamps() {
    Table target = load("sales.t");
    target.updateProperties().set("write.format.default", "parquet").commit();
    TableRows.append(
        load("sales.src"),
        row(1, "1969-12-31T23:59:59.5", "1969-12-31T23:59:59.000001Z"),
        row(2, "2026-10-03T01:00:00", null));
    SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), DAY));
    target = load("sales.t");
    List<List<Object>> first = values(target);
    // Another engine deletes row 2 by key: the revert below must copy the live rows of its files.
    target
        .newRowDelta()
        .addDeletes(EqualityDeletes.ofId(target, row(2, "2026-10-03T00:00:00", null), 2L))
        .commit();
    target.updateProperties().set("write.format.default", "orc").commit();
    load("sales.src")
        .newDelete()
        .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
        .commit();
    TableRows.append(load("sales.src"), row(7, "2026-10-03T02:00:00", null));
    RunResult second = SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), DAY));

    target = load("sales.t");
    Revert.of(target, "sales.t").run(second.runId()).commit();

    target = load("sales.t");
    assertThat(values(target)).containsExactly(first.get(0));
    assertThat(dataFormats(target)).containsOnly(FileFormat.PARQUET);
  }

  private static Record row(long id, String ts, String time) {
    Record row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("d", LocalDate.parse(DAY));
    row.setField("ts", LocalDateTime.parse(ts));
    row.setField("times", time == null ? null : List.of(OffsetDateTime.parse(time)));
    return row;
  }

  private static List<List<Object>> values(Table table) {
    List<List<Object>> values = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      for (Record row : rows) {
        values.add(
            java.util.Arrays.asList(row.getField("id"), row.getField("ts"), row.getField("times")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    values.sort(java.util.Comparator.comparing(v -> (Long) v.get(0)));
    return values;
  }

  private static List<DataFile> liveFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static List<FileFormat> dataFormats(Table table) {
    return liveFiles(table).stream().map(DataFile::format).toList();
  }

  private Table load(String name) {
    return Catalogs.loadTable(catalog, name);
  }
}
