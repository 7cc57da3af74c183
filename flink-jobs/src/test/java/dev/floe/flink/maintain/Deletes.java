package dev.floe.flink.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Delete files written with Iceberg's own writers, committed with a {@code RowDelta}: what Spark's
 * merge-on-read (position deletes, v3 deletion vectors) and Flink upserts (equality deletes) leave.
 */
public final class Deletes {
  private static int taskId = 100;

  private Deletes() {}

  /** The live data files of the table, in location order. */
  public static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file().copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(java.util.Comparator.comparing(DataFile::location));
    return files;
  }

  /** The live data files of one partition (its path, e.g. {@code order_date=2026-10-03}). */
  public static List<DataFile> dataFiles(Table table, String partitionPath) {
    return dataFiles(table).stream()
        .filter(file -> table.spec().partitionToPath(file.partition()).equals(partitionPath))
        .toList();
  }

  /** Every delete file some live data file has, counted once per data file it applies to. */
  public static int attachedDeletes(Table table) {
    table.refresh();
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        count += task.deletes().size();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count;
  }

  /** A v2 position delete file for rows {@code positions} of {@code file}. */
  public static DeleteFile positions(Table table, DataFile file, long... positions) {
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table).build();
    PositionDeleteWriter<Record> writer =
        writers.newPositionDeleteWriter(
            files(table).newOutputFile(table.specs().get(file.specId()), file.partition()),
            table.specs().get(file.specId()),
            file.partition());
    try (writer) {
      for (long position : positions) {
        writer.write(PositionDelete.<Record>create().set(file.location(), position));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /** A deletion vector (format v3) for rows {@code positions} of {@code file}. */
  static DeleteFile deletionVector(Table table, DataFile file, long... positions) {
    OutputFileFactory puffins =
        OutputFileFactory.builderFor(table, taskId++, 1).format(FileFormat.PUFFIN).build();
    BaseDVFileWriter writer = new BaseDVFileWriter(puffins, path -> null);
    try (writer) {
      for (long position : positions) {
        writer.delete(
            file.location(), position, table.specs().get(file.specId()), file.partition());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteWriteResult result = writer.result();
    return result.deleteFiles().get(0);
  }

  /** An equality delete file on {@code column} (a long) in one partition. */
  static DeleteFile equality(Table table, StructLike partition, String column, long... values) {
    Schema deleteSchema = table.schema().select(column);
    int fieldId = table.schema().findField(column).fieldId();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {fieldId})
            .equalityDeleteRowSchema(deleteSchema)
            .build();
    EqualityDeleteWriter<Record> writer =
        writers.newEqualityDeleteWriter(
            files(table).newOutputFile(table.spec(), partition), table.spec(), partition);
    try (writer) {
      for (long value : values) {
        GenericRecord record = GenericRecord.create(deleteSchema);
        record.set(0, value);
        writer.write(record);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /**
   * An equality delete on {@code column} (a long) of {@code spec} and {@code partition} (null for
   * an unpartitioned spec: it applies to every partition), written with whole rows as Flink's
   * non-upsert writer writes them: the row also holds {@code other} = {@code otherValue}, which
   * need not be the value of the rows it deletes (it deletes by {@code column} alone).
   */
  public static DeleteFile wholeRowEquality(
      Table table,
      PartitionSpec spec,
      StructLike partition,
      String column,
      long value,
      String other,
      Object otherValue) {
    Schema rowSchema = table.schema().select(column, other);
    EqualityDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .equalityFieldIds(new int[] {table.schema().findField(column).fieldId()})
            .equalityDeleteRowSchema(rowSchema)
            .build()
            .newEqualityDeleteWriter(files(table).newOutputFile(spec, partition), spec, partition);
    try (writer) {
      GenericRecord record = GenericRecord.create(rowSchema);
      record.setField(column, value);
      record.setField(other, otherValue);
      writer.write(record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  /** Commits {@code deletes} in one row delta. */
  public static void commit(Table table, DeleteFile... deletes) {
    RowDelta delta = table.newRowDelta();
    for (DeleteFile delete : deletes) {
      delta.addDeletes(delete);
    }
    delta.commit();
    table.refresh();
  }

  private static OutputFileFactory files(Table table) {
    return OutputFileFactory.builderFor(table, taskId++, 1).format(FileFormat.PARQUET).build();
  }
}
