package dev.floe.catalog.testing;

import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Builds tables in the states maintenance planning tells apart, on a real embedded catalog: small
 * files, position deletes written through Iceberg's {@link RowDelta}, long histories beyond
 * retention, many manifests, old orphans, a slice whose late-data window is open, a slice a run is
 * writing (young unreferenced files), and healthy tables. Every table is {@code (id long, amount
 * long, d date)} partitioned by {@code d}, with a target file size of 1 MiB so test files are
 * small.
 */
public final class MaintenanceCatalog {
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "amount", Types.LongType.get()),
          Types.NestedField.required(3, "d", Types.DateType.get()));

  /** A day long past any late-data window the tests set. */
  public static final LocalDate OLD_DAY = LocalDate.parse("2026-01-05");

  private final EmbeddedCatalog catalog;
  private final Instant now;
  private long nextId = 1;

  /**
   * @param catalog where to create the tables
   * @param now the instant the planner will be given (orphan ages are set against it)
   */
  public MaintenanceCatalog(EmbeddedCatalog catalog, Instant now) {
    this.catalog = catalog;
    this.now = now;
  }

  /** A table with the policy defaults (min_input_files 5) and a 1 MiB target file size. */
  public Table table(String name) {
    Table table =
        catalog.create(name, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    table
        .updateProperties()
        .set(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(1L << 20))
        .set(FloeTableProperties.RETENTION_KEEP_LAST, "3")
        .commit();
    return table;
  }

  /** Sets table properties. */
  public void set(Table table, Map<String, String> properties) {
    UpdateProperties update = table.updateProperties();
    properties.forEach(update::set);
    update.commit();
  }

  /** One append of {@code files} files of {@code rowsPerFile} rows each into {@code day}. */
  public List<DataFile> files(Table table, LocalDate day, int files, int rowsPerFile) {
    AppendFiles append = table.newAppend();
    List<DataFile> written = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      DataFile file = write(table, day, rowsPerFile);
      append.appendFile(file);
      written.add(file);
    }
    append.commit();
    return written;
  }

  /** {@code commits} appends of one file each: a long history, one manifest per commit. */
  public void history(Table table, LocalDate firstDay, int commits) {
    for (int i = 0; i < commits; i++) {
      files(table, firstDay.plusDays(i), 1, 3);
    }
  }

  /**
   * Deletes the first {@code rows} rows of {@code file} with one position-delete file (scoped to
   * that file, as Iceberg's writers write them), committed through {@code RowDelta}.
   */
  public DeleteFile deleteRows(Table table, DataFile file, int rows) {
    OutputFile out =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation(
                        table.spec(), file.partition(), "deletes-" + nextId++ + ".parquet"));
    PositionDeleteWriter<Record> writer;
    try {
      writer =
          Parquet.writeDeletes(out)
              .withSpec(table.spec())
              .overwrite()
              .withPartition(file.partition())
              // As Iceberg's own writers: full bounds on file_path, so the file names one file.
              .metricsConfig(org.apache.iceberg.MetricsConfig.forPositionDelete(table))
              .createWriterFunc(GenericParquetWriter::create)
              .buildPositionWriter();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long pos = 0; pos < rows; pos++) {
        writer.write(delete.set(file.location(), pos, null));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteFile deletes = writer.toDeleteFile();
    table
        .newRowDelta()
        .addDeletes(deletes)
        .validateFromSnapshot(table.currentSnapshot().snapshotId())
        .commit();
    return deletes;
  }

  /**
   * A data file written into {@code day}'s partition directory and never committed, last modified
   * {@code age} before now: an orphan when older than the minimum age, a running job's file when
   * younger.
   */
  public DataFile uncommitted(Table table, LocalDate day, Duration age) {
    DataFile file = write(table, day, 2);
    try {
      Files.setLastModifiedTime(
          Path.of(
              java.net.URI.create(
                  file.location().startsWith("file:")
                      ? file.location()
                      : "file:" + file.location())),
          FileTime.from(now.minus(age)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** Today's date by the planner's clock, UTC. */
  public LocalDate today() {
    return LocalDate.ofInstant(now, ZoneOffset.UTC);
  }

  private DataFile write(Table table, LocalDate day, int rows) {
    Record[] records = new Record[rows];
    for (int r = 0; r < rows; r++) {
      GenericRecord record = GenericRecord.create(table.schema());
      record.setField("id", nextId);
      record.setField("amount", nextId * 10);
      record.setField("d", day);
      nextId++;
      records[r] = record;
    }
    return TableRows.write(table, records);
  }
}
