package dev.floe.flink.job;

import dev.floe.catalog.commit.UncommittedFiles;
import dev.floe.catalog.error.TimedOutException;
import dev.floe.flink.commit.CommitMessage;
import dev.floe.flink.commit.CommitMessages;
import java.io.Serializable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;

/**
 * The last operator before a run's committer, chained to it (parallelism 1, same task, same
 * thread): it passes everything through and, at end of input, lets the commit start only before the
 * run's {@link Deadline}. After it, it deletes the data files the writers reported and fails the
 * job with {@link TimedOutException} (exit 6): nothing is committed.
 *
 * <p>Because the gate and the committer share one thread, the decision is atomic: a commit either
 * starts before the deadline (and may then run to its end) or never. This holds without a client
 * waiting on the job, e.g. under {@code flink run -d}, where nothing else would stop a late commit.
 */
final class DeadlineGate<T> extends AbstractStreamOperator<T>
    implements OneInputStreamOperator<T, T>, BoundedOneInput {

  /** The data files an element announces, to delete when the gate refuses the commit. */
  interface Files<T> extends Serializable {
    List<DataFile> of(T element, ClassLoader loader);
  }

  private final Deadline deadline;
  private final String subject;
  private final Table table;
  private final Files<T> files;
  private final Clock clock;

  private transient List<DataFile> written;

  /**
   * @param subject what could not be done, e.g. {@code run fact_orders_daily for 2026-10-03}
   * @param table a serializable copy of the target, whose IO deletes the files
   */
  private DeadlineGate(Deadline deadline, String subject, Table table, Files<T> files) {
    this.deadline = deadline;
    this.subject = subject;
    this.table = table;
    this.files = files;
    this.clock = Clock.systemUTC();
  }

  /** The writers' messages ({@link CommitMessage}s as bytes) in front of the slice committer. */
  static DataStream<byte[]> beforeCommit(
      DataStream<byte[]> messages, Deadline deadline, String subject, Table table) {
    Files<byte[]> written = (bytes, loader) -> filesOf(CommitMessages.decode(bytes, loader));
    return gate(messages, new DeadlineGate<>(deadline, subject, table, written));
  }

  /** The data files a writer's message announces; none for a duplicate-key message. */
  private static List<DataFile> filesOf(CommitMessage message) {
    if (message instanceof CommitMessage.Written written) {
      return written.files();
    }
    if (message instanceof CommitMessage.SliceWritten sliceWritten) {
      return sliceWritten.written().files();
    }
    return List.of();
  }

  /** The source rows in front of a keyed committer, which writes its files only when it commits. */
  static DataStream<RowData> beforeKeyedCommit(
      DataStream<RowData> rows, Deadline deadline, String subject) {
    return gate(rows, new DeadlineGate<>(deadline, subject, null, (row, loader) -> List.of()));
  }

  private static <T> DataStream<T> gate(DataStream<T> input, DeadlineGate<T> gate) {
    return input
        .transform("floe-deadline", input.getType(), gate)
        .setParallelism(1)
        .setMaxParallelism(1);
  }

  @Override
  public void open() throws Exception {
    super.open();
    written = new ArrayList<>();
  }

  @Override
  public void processElement(StreamRecord<T> element) {
    written.addAll(files.of(element.getValue(), getUserCodeClassloader()));
    output.collect(element);
  }

  @Override
  public void endInput() {
    if (!deadline.passed(clock)) {
      return; // the commit may start; the committer's end of input follows in this thread
    }
    if (table != null) {
      UncommittedFiles.delete(table, written);
    }
    throw new TimedOutException(
        String.format(
            "Cannot %s: %s before its commit started; %s and nothing was committed",
            subject,
            deadline.reason(),
            written.isEmpty()
                ? "it had written no file"
                : "the " + written.size() + " file(s) it wrote were deleted"));
  }
}
