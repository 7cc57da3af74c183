package dev.floe.catalog.lineage;

import java.io.IOException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableGroup;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.relocated.com.google.common.collect.Iterables;

/**
 * Reads a table's rows at one snapshot as generic {@link Record}s: what {@code
 * IcebergGenerics.read(table).useSnapshot(id).where(filter)} gives (the same files, delete files
 * and residual filter, each file read whole rather than in planned splits, so rows may come in
 * another order), except that every data file is opened through {@link DataFileReaders}, so a file
 * without field ids (added by a migration or {@code add_files}) has its columns matched by name
 * through the table's name mapping. Iceberg 1.11's {@code GenericReader}, behind {@code
 * IcebergGenerics}, opens files without the mapping and reads such a file's columns by position,
 * swapping the values of any two columns the file stores in another order than the table.
 *
 * <p>Every scan of a table's data (content hashes, diffs, reverts) reads through here.
 */
public final class TableRows {

  private TableRows() {}

  /**
   * The live rows matching {@code filter} at {@code snapshotId}, each a record of that snapshot's
   * schema, as {@code IcebergGenerics} projects a snapshot read.
   *
   * @throws IllegalArgumentException if the snapshot does not exist; while iterating, if the
   *     table's name mapping is not valid
   */
  public static CloseableIterable<Record> read(Table table, long snapshotId, Expression filter) {
    return read(table.newScan().useSnapshot(snapshotId).filter(filter));
  }

  /**
   * The live rows matching {@code filter} at {@code snapshotId}, each a record of {@code
   * projection} (e.g. the table's current schema, which an {@code ALTER} may have moved past the
   * snapshot's).
   *
   * @throws IllegalArgumentException if the snapshot does not exist; while iterating, if the
   *     table's name mapping is not valid
   */
  public static CloseableIterable<Record> read(
      Table table, long snapshotId, Schema projection, Expression filter) {
    return read(table.newScan().useSnapshot(snapshotId).project(projection).filter(filter));
  }

  private static CloseableIterable<Record> read(TableScan scan) {
    return new Rows(scan);
  }

  /** The rows of the planned files, opened one file at a time as the caller iterates. */
  private static final class Rows extends CloseableGroup implements CloseableIterable<Record> {
    private final Table table;
    private final Schema projection;
    private final boolean caseSensitive;
    private final CloseableIterable<FileScanTask> tasks;

    Rows(TableScan scan) {
      this.table = scan.table();
      this.projection = scan.schema();
      this.caseSensitive = scan.isCaseSensitive();
      this.tasks = scan.planFiles();
    }

    @Override
    public CloseableIterator<Record> iterator() {
      CloseableIterator<Record> rows =
          CloseableIterable.concat(Iterables.transform(tasks, this::open)).iterator();
      addCloseable(rows);
      return rows;
    }

    /**
     * One file's live rows, as Iceberg's {@code GenericReader} reads them: the columns the delete
     * filter needs, the deletes applied, then the rows the residual filter rejects left out.
     */
    private CloseableIterable<Record> open(FileScanTask task) {
      DeleteFilter<Record> deletes =
          new GenericDeleteFilter(table.io(), task, table.schema(), projection);
      Schema required = deletes.requiredSchema();
      CloseableIterable<Record> rows =
          DataFileReaders.readBuilder(table, task.file())
              .project(required)
              .idToConstant(DataFileReaders.partitionConstants(task))
              .split(task.start(), task.length())
              .caseSensitive(caseSensitive)
              .filter(task.residual())
              .build();
      CloseableIterable<Record> live = residual(deletes.filter(rows), required, task.residual());
      if (required.columns().size() == projection.columns().size()) {
        return live;
      }
      // The delete filter read extra columns (an equality delete's key, the row position) after
      // the projected ones: drop them.
      return CloseableIterable.transform(live, this::trim);
    }

    private Record trim(Record record) {
      GenericRecord trimmed = GenericRecord.create(projection);
      for (int i = 0; i < projection.columns().size(); i++) {
        trimmed.set(i, record.get(i));
      }
      return trimmed;
    }

    private CloseableIterable<Record> residual(
        CloseableIterable<Record> rows, Schema schema, Expression residual) {
      if (residual == null || residual == Expressions.alwaysTrue()) {
        return rows;
      }
      InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
      Evaluator evaluator = new Evaluator(schema.asStruct(), residual, caseSensitive);
      return CloseableIterable.filter(rows, r -> evaluator.eval(wrapper.wrap(r)));
    }

    @Override
    public void close() throws IOException {
      try {
        tasks.close();
      } finally {
        super.close();
      }
    }
  }
}
