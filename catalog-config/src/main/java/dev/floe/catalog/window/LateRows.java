package dev.floe.catalog.window;

import dev.floe.catalog.lineage.DataFileReaders;
import dev.floe.catalog.lineage.SnapshotFiles;
import dev.floe.catalog.slice.Slice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Counts the rows of a slice that a source table received after the snapshot a run read: rows of
 * the append commits since then ({@code newIncrementalAppendScan().fromSnapshotExclusive(read)}),
 * filtered by the slice on the source's column of the same name. File bounds only say which files
 * may hold such rows, so those files are read and every row is tested: the count is exact.
 *
 * <p>The count is "unknown" rather than a guess when the source has no such date or timestamp
 * column, when the snapshot read is no longer in the source's current history (expired, or the
 * source was rolled back), or when a non-append commit since then (an overwrite) may have added
 * rows of the slice: its rows cannot be told apart from rows it replaced. Row-level deletes
 * committed later are not subtracted: a row that arrived counts as arrived.
 */
public final class LateRows {

  private LateRows() {}

  /**
   * @param source the source table, as it is now
   * @param sourceName its name, as lineage records it
   * @param readSnapshotId the newest source snapshot the run may have read ({@link
   *     dev.floe.catalog.lineage.Lineage#latestPossiblyRead}), or the one it was planned on (late
   *     rows then include rows the run may already have read: a rerun of them is a no-op)
   * @param slice the slice (of the target); its interval is applied to the source's column
   */
  public static LateRowCount count(
      Table source, String sourceName, long readSnapshotId, Slice slice) {
    return count(source, sourceName, readSnapshotId, slice, List.of(), Optional::empty);
  }

  /**
   * {@link #count(Table, String, long, Slice)} of the rows of {@code slice} outside the slices of
   * {@code except} (slices inside it that newer loads hold, {@link LoadedSlices#newerInside}).
   *
   * @param readsBeyondSlice why the job's query may read source rows outside the slice, or empty
   *     when it reads only the slice's rows; asked only when the source changed since the read.
   *     When it may, any commit since that added or removed rows makes the count unknown: the
   *     slice's column cannot tell which rows the query read
   */
  public static LateRowCount count(
      Table source,
      String sourceName,
      long readSnapshotId,
      Slice slice,
      List<Slice> except,
      Supplier<Optional<String>> readsBeyondSlice) {
    Snapshot current = source.currentSnapshot();
    if (current == null) {
      return LateRowCount.unknown(
          sourceName, readSnapshotId, null, sourceName + " has no current snapshot");
    }
    long upTo = current.snapshotId();
    if (upTo == readSnapshotId) {
      return LateRowCount.exact(sourceName, readSnapshotId, upTo, 0); // nothing arrived
    }
    Optional<Slice> onSource = slice.onSchema(source.schema());
    if (onSource.isEmpty()) {
      return LateRowCount.unknown(
          sourceName,
          readSnapshotId,
          upTo,
          sourceName + " has no date or timestamp column " + slice.column());
    }
    if (!SnapshotUtil.isParentAncestorOf(source, upTo, readSnapshotId)) {
      return LateRowCount.unknown(
          sourceName,
          readSnapshotId,
          upTo,
          "snapshot "
              + readSnapshotId
              + " is not in the current history of "
              + sourceName
              + " (expired, or the table was rolled back)");
    }
    LateRowCount inSlice =
        countInSlice(source, sourceName, readSnapshotId, upTo, slice, onSource.get(), except);
    Optional<String> beyond = readsBeyondSlice.get();
    if (beyond.isEmpty() || inSlice.count().orElse(0L) > 0) {
      // Rows known to have arrived inside the slice are late for it even when the query reads
      // more: the count is then at least what it says.
      return inSlice;
    }
    for (Snapshot snapshot :
        SnapshotUtil.ancestorsBetween(upTo, readSnapshotId, source::snapshot)) {
      if (!DataOperations.REPLACE.equals(snapshot.operation())) {
        return LateRowCount.unknown(
            sourceName,
            readSnapshotId,
            upTo,
            "the job's query may read rows of "
                + sourceName
                + " outside the slice ("
                + beyond.get()
                + "), and "
                + snapshot.operation()
                + " snapshot "
                + snapshot.snapshotId()
                + " changed its rows");
      }
    }
    return inSlice;
  }

  /** The late rows of the slice told by its column, outside {@code except}. */
  private static LateRowCount countInSlice(
      Table source,
      String sourceName,
      long readSnapshotId,
      long upTo,
      Slice slice,
      Slice onSource,
      List<Slice> except) {
    Expression filter = onSource.toExpression();
    List<Expression> inside = new ArrayList<>();
    for (Slice newer : outermost(except)) {
      newer.onSchema(source.schema()).ifPresent(s -> inside.add(s.toExpression()));
    }
    if (!inside.isEmpty()) {
      filter = Expressions.and(filter, Expressions.not(anyOf(inside, 0, inside.size())));
    }
    try {
      Optional<Long> rewrite = rewriteOfSlice(source, upTo, readSnapshotId, filter);
      if (rewrite.isPresent()) {
        return LateRowCount.unknown(
            sourceName,
            readSnapshotId,
            upTo,
            "overwrite snapshot "
                + rewrite.get()
                + " of "
                + sourceName
                + " may have rewritten rows of the slice");
      }
      return LateRowCount.exact(
          sourceName,
          readSnapshotId,
          upTo,
          countAppended(source, readSnapshotId, upTo, slice.column(), filter, Long.MAX_VALUE));
    } catch (NotFoundException | UncheckedIOException e) {
      return LateRowCount.unknown(
          sourceName,
          readSnapshotId,
          upTo,
          "cannot read the files of " + sourceName + ": " + e.getMessage());
    }
  }

  /**
   * The rows of {@code slice} (on the source's schema) that the append commits after {@code
   * fromExclusive} up to {@code upTo} added, counted up to {@code limit}: reading stops there.
   *
   * @throws UncheckedIOException when a file cannot be read
   */
  static long countAppended(Table source, long fromExclusive, long upTo, Slice slice, long limit) {
    return countAppended(source, fromExclusive, upTo, slice.column(), slice.toExpression(), limit);
  }

  private static long countAppended(
      Table source, long fromExclusive, long upTo, String column, Expression filter, long limit) {
    Schema projection = source.schema().select(column);
    Evaluator exact = new Evaluator(projection.asStruct(), filter);
    InternalRecordWrapper wrapper = new InternalRecordWrapper(projection.asStruct());
    long rows = 0;
    try (CloseableIterable<FileScanTask> tasks =
        source
            .newIncrementalAppendScan()
            .fromSnapshotExclusive(fromExclusive)
            .toSnapshot(upTo)
            .filter(filter)
            .planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<Record> records = read(source, task, projection, filter)) {
          for (Record record : records) {
            if (exact.eval(wrapper.wrap(record)) && ++rows >= limit) {
              return rows;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static CloseableIterable<Record> read(
      Table source, FileScanTask task, Schema projection, Expression filter) {
    DataFile file = task.file();
    return DataFileReaders.readBuilder(source, file)
        .project(projection)
        .split(task.start(), task.length())
        .filter(filter)
        .idToConstant(DataFileReaders.partitionConstants(task))
        .build();
  }

  /** The slices of {@code slices} (distinct) that no other one of them covers. */
  private static List<Slice> outermost(List<Slice> slices) {
    List<Slice> outer = new ArrayList<>();
    for (Slice slice : slices) {
      boolean covered = false;
      for (Slice other : slices) {
        if (!other.equals(slice) && other.covers(slice)) {
          covered = true;
          break;
        }
      }
      if (!covered) {
        outer.add(slice);
      }
    }
    return outer;
  }

  /**
   * The OR of {@code expressions[from, to)} as a balanced tree: Iceberg's visitors recurse once per
   * level, and a chain of thousands (an hour run for every hour of a year) overflowed the stack.
   */
  private static Expression anyOf(List<Expression> expressions, int from, int to) {
    if (to - from == 1) {
      return expressions.get(from);
    }
    int middle = (from + to) >>> 1;
    return Expressions.or(anyOf(expressions, from, middle), anyOf(expressions, middle, to));
  }

  /** The first commit after {@code fromExclusive} other than an append that may add slice rows. */
  private static Optional<Long> rewriteOfSlice(
      Table source, long upTo, long fromExclusive, Expression filter) {
    Map<Integer, Evaluator> partitions = new HashMap<>();
    InclusiveMetricsEvaluator metrics = new InclusiveMetricsEvaluator(source.schema(), filter);
    for (Snapshot snapshot : SnapshotUtil.ancestorsBetween(upTo, fromExclusive, source::snapshot)) {
      if (!DataOperations.OVERWRITE.equals(snapshot.operation())) {
        continue; // appends are counted; replace (compaction) and delete add no new rows
      }
      for (DataFile file : SnapshotFiles.changes(source, snapshot).addedDataFiles()) {
        Evaluator partition =
            partitions.computeIfAbsent(
                file.specId(), id -> partitionEvaluator(source.specs().get(id), filter));
        if (partition.eval(file.partition()) && metrics.eval(file)) {
          return Optional.of(snapshot.snapshotId());
        }
      }
    }
    return Optional.empty();
  }

  private static Evaluator partitionEvaluator(PartitionSpec spec, Expression filter) {
    return new Evaluator(spec.partitionType(), Projections.inclusive(spec).project(filter));
  }
}
