package dev.floe.flink.write;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.RowChecks;
import dev.floe.flink.commit.CommitMessage;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.row.RowDataHasher;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * One parallel writer of a job that loads several consecutive slices at once: what {@link
 * SliceWriterOperator} does for one slice, kept apart per slice. Every row is guarded against the
 * slices' union, routed to its slice ({@link SliceRouter}), and hashed, checked and written there,
 * so each slice gets its own files, content hash, check stats and unique-key batches, exactly as a
 * run of that slice alone would. At end of input it sends each slice's result ({@link
 * CommitMessage.SliceWritten}) to the committer, which commits every slice as its own snapshot.
 *
 * <p>At most {@link #MAX_OPEN_SLICES} slices have an open file writer at once (each buffers a row
 * group in memory): a row of another slice first completes the files of the slice written least
 * recently, whose later rows, if any, go to new files.
 */
public final class SlicesWriterOperator extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<RowData, byte[]>, BoundedOneInput {

  /** Slices with an open file writer in one writer subtask, at most. */
  static final int MAX_OPEN_SLICES = 32;

  /**
   * The data files each finished writer wrote, as {@code <slice index> <location>} strings: what a
   * client deletes for the slices a cancelled job did not commit.
   */
  public static final String WRITTEN_SLICE_FILES = "floe-written-slice-files";

  /** The slice index and the location of an entry of {@link #WRITTEN_SLICE_FILES}. */
  public record WrittenFile(int slice, String location) {
    public static WrittenFile parse(String entry) {
      int space = entry.indexOf(' ');
      return new WrittenFile(
          Integer.parseInt(entry.substring(0, space)), entry.substring(space + 1));
    }
  }

  private final Table table;
  private final RowType rowType;
  private final RowGuard guard;
  private final SliceRouter router;
  private final List<CheckSpec> checks;
  private final boolean[] onePartition;

  private transient SliceOutput[] slices;
  private transient LinkedHashMap<Integer, SliceOutput> open;
  private transient int subtask;
  private transient int attempt;
  private transient RowDataHasher hasher;
  private transient RowChecks rowChecks;
  private transient Consumer<byte[]> uniqueKeyOutput;
  private transient ListAccumulator<String> writtenFiles;
  private transient boolean finished;

  /**
   * One slice in this writer: what it has seen, the files it completed, and its open file writer
   * (null while closed).
   */
  private static final class SliceOutput {
    final ContentHash hash = ContentHash.empty();
    final CheckStats stats = new CheckStats();
    final UniqueKeys uniqueKeys;
    final List<DataFile> files = new ArrayList<>();
    TaskWriter<RowData> writer;

    SliceOutput(UniqueKeys uniqueKeys) {
      this.uniqueKeys = uniqueKeys;
    }

    /** Completes the open file writer, if any, keeping its files. */
    void complete(int index, ListAccumulator<String> writtenFiles) throws java.io.IOException {
      if (writer == null) {
        return;
      }
      WriteResult result = writer.complete(); // if it fails, close() aborts the writer
      writer = null;
      for (DataFile file : result.dataFiles()) {
        files.add(file);
        writtenFiles.add(index + " " + file.location());
      }
    }
  }

  /**
   * @param table a serializable, read-only copy of the target
   * @param rowType the target's row type, in the table's column order
   * @param guard the guard of the slices' union (and the required columns)
   * @param router the slices, in order
   * @param checks the manifest's checks, evaluated per slice
   * @param onePartition per slice: every row of it belongs to one partition of the table
   */
  public SlicesWriterOperator(
      Table table,
      RowType rowType,
      RowGuard guard,
      SliceRouter router,
      List<CheckSpec> checks,
      boolean[] onePartition) {
    if (onePartition.length != router.size()) {
      throw new IllegalArgumentException(
          "Cannot write " + router.size() + " slices with " + onePartition.length + " decisions");
    }
    this.table = table;
    this.rowType = rowType;
    this.guard = guard;
    this.router = router;
    this.checks = checks;
    this.onePartition = onePartition.clone();
  }

  @Override
  public void open() throws Exception {
    super.open();
    slices = new SliceOutput[router.size()];
    open = new LinkedHashMap<>(16, 0.75f, true); // access order: the eldest was written longest ago
    subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    hasher = new RowDataHasher(rowType);
    rowChecks = new RowChecks(checks, rowType);
    writtenFiles = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(WRITTEN_SLICE_FILES, writtenFiles);
    uniqueKeyOutput =
        batch -> output.collect(SliceWriterOperator.UNIQUE_KEYS, new StreamRecord<>(batch));
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    guard.check(row); // before the write: a one-partition writer relies on it
    int index = router.indexOf(row);
    SliceOutput slice = output(index);
    hasher.add(row, slice.hash);
    rowChecks.accept(row, slice.stats);
    slice.uniqueKeys.add(row, hasher, uniqueKeyOutput);
    writerOf(index, slice).write(row);
  }

  private SliceOutput output(int index) {
    SliceOutput slice = slices[index];
    if (slice == null) {
      int subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
      slice = new SliceOutput(UniqueKeys.ofSlice(checks, rowType, subtasks, index, slices.length));
      slices[index] = slice;
    }
    return slice;
  }

  /** The slice's open file writer: opened if needed, after completing the eldest past the cap. */
  private TaskWriter<RowData> writerOf(int index, SliceOutput slice) throws Exception {
    if (open.get(index) != null) {
      return slice.writer;
    }
    if (open.size() >= MAX_OPEN_SLICES) {
      Iterator<Map.Entry<Integer, SliceOutput>> eldest = open.entrySet().iterator();
      Map.Entry<Integer, SliceOutput> entry = eldest.next();
      entry.getValue().complete(entry.getKey(), writtenFiles);
      eldest.remove();
    }
    slice.writer =
        onePartition[index]
            ? DataFileWriters.forOnePartition(table, rowType, subtask, attempt)
            : DataFileWriters.create(table, rowType, subtask, attempt);
    open.put(index, slice);
    return slice.writer;
  }

  @Override
  public void endInput() throws Exception {
    for (int i = 0; i < slices.length; i++) {
      SliceOutput slice = slices[i];
      if (slice == null) {
        continue; // no row of this slice came to this writer: nothing to send
      }
      slice.uniqueKeys.flush(uniqueKeyOutput);
      slice.complete(i, writtenFiles);
      open.remove(i);
      CommitMessage.Written written =
          new CommitMessage.Written(subtask, List.copyOf(slice.files), slice.hash, slice.stats);
      output.collect(
          new StreamRecord<>(CommitMessages.encode(new CommitMessage.SliceWritten(i, written))));
    }
  }

  @Override
  public void finish() throws Exception {
    super.finish();
    finished = true;
  }

  /**
   * When this task did not finish (the job failed or was cancelled), deletes every file it wrote,
   * sent or not: the committer commits only once every writer has finished, so none of them can be
   * live.
   */
  @Override
  public void close() throws Exception {
    Exception failure = null;
    for (SliceOutput slice : slices == null ? new SliceOutput[0] : slices) {
      if (slice == null) {
        continue;
      }
      try {
        if (slice.writer != null) {
          TaskWriter<RowData> writer = slice.writer;
          slice.writer = null;
          writer.abort(); // the job failed: these files will never be committed
          writer.close();
        }
        if (!finished) {
          for (DataFile file : slice.files) {
            table.io().deleteFile(file.location());
          }
        }
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    try {
      super.close();
    } finally {
      if (failure != null) {
        throw failure;
      }
    }
  }
}
