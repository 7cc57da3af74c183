package dev.floe.flink.write;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.KeyHashBatch;
import dev.floe.flink.check.RowChecks;
import dev.floe.flink.commit.CommitMessage;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.row.RowDataHasher;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.OutputTag;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;

/**
 * One parallel writer: guards every row (inside the slice, required columns set), hashes it,
 * collects check violations and writes it to Parquet data files. At end of input it sends its
 * files, hash and stats to the committer. It never commits; if the job fails, its files are aborted
 * (deleted). A writer that finished before the job was cancelled (its files already on their way to
 * the committer) names them in the {@link #WRITTEN_FILES} accumulator, so that the client can
 * delete them once it knows the run did not commit.
 *
 * <p>Iceberg's Flink writer classes are public but not API-checked; their use stays in this
 * package.
 */
public final class SliceWriterOperator extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<RowData, byte[]>, BoundedOneInput {

  /**
   * Side output of unique-key hashes, in batches per check and finder bucket ({@link
   * KeyHashBatch}).
   */
  public static final OutputTag<byte[]> UNIQUE_KEYS =
      new OutputTag<>("floe-unique-keys", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  /** The locations of the data files each finished writer wrote, as a list of strings. */
  public static final String WRITTEN_FILES = "floe-written-files";

  private final Table table;
  private final RowType rowType;
  private final RowGuard guard;
  private final List<CheckSpec> checks;
  private final FailurePoint failAt;
  private final boolean onePartition;

  private transient TaskWriter<RowData> writer;
  private transient RowDataHasher hasher;
  private transient ContentHash hash;
  private transient CheckStats stats;
  private transient RowChecks rowChecks;
  private transient UniqueKeys uniqueKeys;
  private transient Consumer<byte[]> uniqueKeyOutput;
  private transient boolean completed;
  private transient List<DataFile> sent;
  private transient boolean finished;
  private transient ListAccumulator<String> writtenFiles;

  /**
   * @param table a serializable, read-only copy of the target (schema, spec, location, IO)
   * @param rowType the target's row type, in the table's column order
   * @param guard the slice and required-column guard
   * @param checks the manifest's checks
   * @param failAt a failure to inject: {@link FailurePoint#AFTER_SOME_FILES} fails the first writer
   *     right after its files are written, while the others may still be writing
   * @param onePartition every row the guard lets through belongs to one partition of the table (the
   *     slice {@linkplain dev.floe.catalog.slice.Slice#fitsOnePartition fits one}): the writer
   *     takes that partition from the first row instead of computing it per row
   */
  public SliceWriterOperator(
      Table table,
      RowType rowType,
      RowGuard guard,
      List<CheckSpec> checks,
      FailurePoint failAt,
      boolean onePartition) {
    this.table = table;
    this.rowType = rowType;
    this.guard = guard;
    this.checks = checks;
    this.failAt = failAt;
    this.onePartition = onePartition;
  }

  @Override
  public void open() throws Exception {
    super.open();
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    writer =
        onePartition
            ? DataFileWriters.forOnePartition(table, rowType, subtask, attempt)
            : DataFileWriters.create(table, rowType, subtask, attempt);
    hasher = new RowDataHasher(rowType);
    hash = ContentHash.empty();
    stats = new CheckStats();
    rowChecks = new RowChecks(checks, rowType);
    // One bucket per writer subtask; the finders run with the writers' parallelism.
    uniqueKeys =
        UniqueKeys.of(
            checks, rowType, getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
    writtenFiles = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(WRITTEN_FILES, writtenFiles);
    // Built once: a lambda capturing the operator, created per row, would allocate per row.
    uniqueKeyOutput = batch -> output.collect(UNIQUE_KEYS, new StreamRecord<>(batch));
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    guard.check(row); // before the write: a one-partition writer relies on it
    hasher.add(row, hash);
    rowChecks.accept(row, stats);
    uniqueKeys.add(row, hasher, uniqueKeyOutput); // reuses the encoding hasher.add just made
    writer.write(row);
  }

  @Override
  public void endInput() throws Exception {
    uniqueKeys.flush(uniqueKeyOutput);
    WriteResult result = writer.complete();
    completed = true;
    for (DataFile file : result.dataFiles()) {
      writtenFiles.add(file.location());
    }
    if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0) {
      failAt.failIf(FailurePoint.AFTER_SOME_FILES, "after writing " + table.name() + "'s files");
    }
    sent = Arrays.asList(result.dataFiles());
    CommitMessage.Written written =
        new CommitMessage.Written(
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), sent, hash, stats);
    output.collect(new StreamRecord<>(CommitMessages.encode(written)));
  }

  @Override
  public void finish() throws Exception {
    super.finish();
    finished = true;
  }

  @Override
  public void close() throws Exception {
    try {
      if (writer != null && !completed) {
        writer.abort(); // the job failed: these files will never be committed
      } else if (sent != null && !finished) {
        // Sent, but this task never finished: the committer, which commits only once every
        // writer has finished, cannot have committed them.
        for (DataFile file : sent) {
          table.io().deleteFile(file.location());
        }
      }
      if (writer != null) {
        writer.close();
      }
    } finally {
      super.close();
    }
  }
}
