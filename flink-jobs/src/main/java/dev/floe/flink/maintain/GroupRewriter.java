package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.row.RowDataHasher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.BaseCombinedScanTask;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.flink.sink.FlinkFileWriterFactory;
import org.apache.iceberg.flink.source.DataIterator;
import org.apache.iceberg.flink.source.RowDataFileScanTaskReader;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * Rewrites groups (one partition's small files each): reads every row with Iceberg's Flink reader,
 * hashes it, writes it into files of the target size, then reads those files back and hashes again.
 * The committer compares the two hashes, so a rewrite that lost, duplicated or altered a row is
 * never committed. It never commits; if the job fails, it deletes the files it wrote.
 *
 * <p>Iceberg's Flink reader and writer classes are public but not API-checked; their use stays in
 * this class.
 */
final class GroupRewriter extends AbstractStreamOperator<byte[]>
    implements OneInputStreamOperator<byte[], byte[]>, BoundedOneInput {

  private final Table table;
  private final RowType rowType;
  private final long targetFileSizeBytes;
  private final FailurePoint failAt;

  private transient FlinkFileWriterFactory writers;
  private transient RowDataFileScanTaskReader reader;
  private transient RowDataHasher hasher;
  private transient List<String> written;
  private transient boolean finished;

  /**
   * @param table a serializable, read-only copy of the table
   * @param rowType the table's row type
   * @param targetFileSizeBytes the size at which an output file is closed and the next one opened
   * @param failAt a failure to inject (tests)
   */
  GroupRewriter(Table table, RowType rowType, long targetFileSizeBytes, FailurePoint failAt) {
    this.table = table;
    this.rowType = rowType;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.failAt = failAt;
  }

  @Override
  public void open() throws Exception {
    super.open();
    writers =
        new FlinkFileWriterFactory.Builder(table)
            .dataFileFormat(OutputFiles.format(table))
            .dataSchema(table.schema())
            .dataFlinkType(rowType)
            .writerProperties(table.properties())
            .build();
    reader =
        new RowDataFileScanTaskReader(
            table.schema(),
            table.schema(),
            table.properties().get(TableProperties.DEFAULT_NAME_MAPPING),
            true,
            List.of());
    hasher = new RowDataHasher(rowType);
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
    RollingDataWriter<RowData> writer =
        new RollingDataWriter<>(
            writers,
            OutputFiles.factory(table, group),
            table.io(),
            targetFileSizeBytes,
            spec,
            group.partition());
    try (DataIterator<RowData> rows = iterate(group.inputs(), spec)) {
      while (rows.hasNext()) {
        RowData row = rows.next();
        hasher.add(row, read);
        writer.write(row);
      }
    } finally {
      writer.close();
      writer.result().dataFiles().forEach(f -> written.add(f.location()));
    }
    List<DataFile> outputs = writer.result().dataFiles();
    ContentHash readBack = ContentHash.empty();
    try (DataIterator<RowData> rows = iterate(outputs, spec)) {
      while (rows.hasNext()) {
        hasher.add(rows.next(), readBack);
      }
    }
    return new Rewritten(group.index(), group.sliceIndex(), outputs, read, readBack);
  }

  private DataIterator<RowData> iterate(List<DataFile> files, PartitionSpec spec) {
    String schema = SchemaParser.toJson(table.schema());
    String specJson = PartitionSpecParser.toJson(spec);
    ResidualEvaluator noFilter = ResidualEvaluator.unpartitioned(Expressions.alwaysTrue());
    List<FileScanTask> tasks = new ArrayList<>();
    for (DataFile file : files) {
      // The planner chose only files without delete files, so none are attached here.
      tasks.add(new BaseFileScanTask(file, null, schema, specJson, noFilter));
    }
    return new DataIterator<>(
        reader, new BaseCombinedScanTask(tasks), table.io(), table.encryption());
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
