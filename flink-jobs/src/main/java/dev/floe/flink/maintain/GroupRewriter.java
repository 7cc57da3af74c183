package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.lineage.StoredStrings;
import dev.floe.flink.commit.CommitMessages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Rewrites groups (one partition's files each): reads every live row with Iceberg's generic reader
 * ({@link StoredRows}: values exactly as stored, the group's delete files applied), hashes it from
 * those stored values, writes it with Iceberg's generic writer into files near the target size,
 * never more than the plan expects ({@link GroupFileWriter}), then reads those files back and
 * hashes again. The committer compares the two hashes, so a rewrite that lost, duplicated or
 * altered a row — even by a microsecond — is never committed. No row passes through Flink's types.
 * It never commits; if the job fails, it deletes the files it wrote.
 */
final class GroupRewriter extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<byte[], byte[]>, BoundedOneInput {

  private final Table table;
  private final long targetFileSizeBytes;
  private final FailurePoint failAt;
  private final RowLayout layout;

  private transient GenericFileWriterFactory writers;
  private transient Types.StructType storedType;
  private transient RecordHasher hasher;
  private transient RecordHasher lineageHasher; // null without row lineage
  private transient List<String> written;
  private transient boolean finished;

  /**
   * @param table a serializable, read-only copy of the table
   * @param targetFileSizeBytes the size output files are written at ({@link GroupFileWriter})
   * @param failAt a failure to inject (tests)
   * @param layout binpack streams rows in read order; sort and zorder hold a group's rows in memory
   *     and write them ordered
   */
  GroupRewriter(Table table, long targetFileSizeBytes, FailurePoint failAt, RowLayout layout) {
    this.table = table;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.failAt = failAt;
    this.layout = layout;
  }

  @Override
  public void open() throws Exception {
    super.open();
    writers =
        new GenericFileWriterFactory.Builder(table)
            .dataFileFormat(OutputFiles.format(table))
            .dataSchema(StoredRows.schema(table))
            .writerProperties(table.properties())
            .build();
    storedType = StoredRows.schema(table).asStruct();
    hasher = new RecordHasher(table.schema());
    lineageHasher =
        StoredRows.schema(table).columns().size() > table.schema().columns().size()
            ? new RecordHasher(StoredRows.schema(table))
            : null;
    written = new ArrayList<>();
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) throws Exception {
    RewriteGroup group = CommitMessages.decode(element.getValue(), getUserCodeClassloader());
    Rewritten result = rewrite(group);
    output.collect(new StreamRecord<>(CommitMessages.encode(result)));
    if (failAt == FailurePoint.AFTER_SOME_FILES) {
      throw new IllegalStateException(
          "Injected failure in the middle of compaction, after rewriting group "
              + group.index()
              + " into "
              + result.outputs().size()
              + " file(s)");
    }
  }

  private Rewritten rewrite(RewriteGroup group) throws IOException {
    PartitionSpec spec = table.specs().get(group.specId());
    ContentHash read = ContentHash.empty();
    ContentHash lineageRead = ContentHash.empty();
    AtomicLong rowsInFiles = new AtomicLong();
    GroupFileWriter writer = new GroupFileWriter(table, writers, group, targetFileSizeBytes);
    // Sort and z-order: the group's rows in memory (a group holds at most
    // RowLayout.MAX_GROUP_BYTES of input files and GroupHeap.MAX_GROUP_HEAP_BYTES of estimated
    // heap), then written in order.
    List<Record> held = layout.reorders() ? new ArrayList<>() : null;
    String refusal = null;
    try {
      inputs:
      for (DataFile input : group.inputs()) {
        StoredStrings.RewriteCheck strings = StoredStrings.rewriteCheck(table, input, storedType);
        try (CloseableIterable<Record> rows =
            StoredRows.read(table, spec, input, group.deletesOf(input), rowsInFiles)) {
          for (Record row : rows) {
            refusal = strings.refusal(row);
            if (refusal != null) {
              break inputs;
            }
            hasher.add(row, read);
            if (lineageHasher != null) {
              lineageHasher.add(row, lineageRead);
            }
            if (held == null) {
              writer.write(row);
            } else {
              held.add(row);
            }
          }
        }
      }
      if (held != null && refusal == null) {
        for (Record row : layout.order(table, held)) {
          writer.write(row);
        }
      }
    } finally {
      writer.close();
      writer.dataFiles().forEach(f -> written.add(f.location()));
    }
    List<DataFile> outputs = writer.dataFiles();
    if (refusal != null) {
      // The committer refuses the slice and deletes what was written of the group.
      return new Rewritten(
          group.index(),
          group.sliceIndex(),
          outputs,
          read,
          ContentHash.empty(),
          rowsInFiles.get(),
          lineageRead,
          ContentHash.empty(),
          refusal);
    }
    // Read back independently: the new files alone, no delete file, through the same reader.
    ContentHash readBack = ContentHash.empty();
    ContentHash lineageReadBack = ContentHash.empty();
    AtomicLong rowsWritten = new AtomicLong();
    for (DataFile output : outputs) {
      try (CloseableIterable<Record> rows =
          StoredRows.readWritten(table, spec, output, rowsWritten)) {
        for (Record row : rows) {
          hasher.add(row, readBack);
          if (lineageHasher != null) {
            lineageHasher.add(row, lineageReadBack);
          }
        }
      }
    }
    return new Rewritten(
        group.index(),
        group.sliceIndex(),
        outputs,
        read,
        readBack,
        rowsInFiles.get(),
        lineageRead,
        lineageReadBack);
  }

  @Override
  public void endInput() {
    finished = true;
  }

  @Override
  public void close() throws Exception {
    try {
      if (!finished && written != null) {
        // The job failed: no commit can include these files. The client deletes them too (by
        // their deterministic names); this covers a client that is gone (detached `flink run`).
        for (String location : written) {
          try {
            table.io().deleteFile(location);
          } catch (RuntimeException e) {
            LOG.warn("Cannot delete uncommitted compaction file {}: {}", location, e.toString());
          }
        }
      }
    } finally {
      super.close();
    }
  }
}
