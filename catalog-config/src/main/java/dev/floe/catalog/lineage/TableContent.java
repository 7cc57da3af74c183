package dev.floe.catalog.lineage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Computes the content hash of a table, or of the rows matching a filter, by reading them. Used
 * when lineage cannot tell a slice's content (another writer touched it), by tests, and by
 * verification: it is independent of how the rows were written.
 */
public final class TableContent {

  private TableContent() {}

  /** The hash of the whole table at its current snapshot. */
  public static ContentHash hash(Table table) {
    return hash(table, Expressions.alwaysTrue());
  }

  /** The hash of the rows matching {@code filter} at the table's current snapshot. */
  public static ContentHash hash(Table table, Expression filter) {
    Snapshot current = table.currentSnapshot();
    return current == null ? ContentHash.empty() : hash(table, current.snapshotId(), filter);
  }

  /**
   * The hash of every row of the planned {@code files}, read as stored ({@link StoredRows}): the
   * same as {@link #hash(Table, Expression)} gives for a filter when {@code files} are all the
   * files it selects at the current snapshot, each lies wholly inside it (residual {@code true})
   * and no delete file applies to them. For a caller that planned the files already and checked
   * that; deletes are refused here.
   */
  public static ContentHash hashWholeFiles(Table table, List<FileScanTask> files) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(table.schema(), table.name());
    for (FileScanTask task : files) {
      if (!task.deletes().isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot hash " + task.file().location() + " whole: delete files apply to it");
      }
      try (CloseableIterable<Record> records =
          StoredRows.read(table, task.spec(), task.file(), List.of(), new AtomicLong())) {
        for (Record record : records) {
          hasher.add(record, hash);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + task.file().location() + " to hash it", e);
      }
    }
    return hash;
  }

  /**
   * The hash of the rows matching {@code filter} at one snapshot (e.g. a branch head or a tag),
   * read with the table's current schema ({@link TableRows}: a file without field ids through the
   * table's name mapping).
   */
  public static ContentHash hash(Table table, long snapshotId, Expression filter) {
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(table.schema(), table.name());
    try (CloseableIterable<Record> records =
        // Projected on the current schema explicitly: a snapshot read yields the snapshot's own
        // schema, which an ALTER (it makes no snapshot) leaves behind the hasher's.
        TableRows.read(table, snapshotId, table.schema(), filter)) {
      for (Record record : records) {
        hasher.add(record, hash);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name() + " to hash it", e);
    }
    return hash;
  }
}
