package dev.floe.flink.maintain;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.StructLike;

/**
 * The small data files of one partition of one slice, rewritten together by one task. A group never
 * spans partitions, so its rows never leave their partition and never meet another slice's rows.
 *
 * @param index unique within the compaction; names the output files (see {@link OutputFiles})
 * @param sliceIndex the slice it belongs to
 * @param runId the slice's run id, also part of the output file names
 * @param specId the partition spec of the inputs (always the table's current one)
 * @param inputs the files to replace (without column stats: only identity, size, rows matter)
 * @param expectedOutputs how many files of the target size their bytes fill ({@link
 *     dev.floe.catalog.spec.MaintenancePolicy#expectedFiles}): the rewrite writes at most that many
 *     unless its rows take far more room than the inputs' ({@link GroupFileWriter})
 * @param deletes the delete files (position, equality, deletion vectors) that apply to each input,
 *     by the input's location, as the scan of the base snapshot attached them; inputs without
 *     deletes have no entry. The rewrite applies them, so the new files hold only live rows.
 */
record RewriteGroup(
    int index,
    int sliceIndex,
    String runId,
    int specId,
    List<DataFile> inputs,
    int expectedOutputs,
    Map<String, List<DeleteFile>> deletes)
    implements Serializable {

  RewriteGroup {
    inputs = List.copyOf(inputs);
    deletes = Map.copyOf(deletes);
  }

  RewriteGroup(
      int index,
      int sliceIndex,
      String runId,
      int specId,
      List<DataFile> inputs,
      int expectedOutputs) {
    this(index, sliceIndex, runId, specId, inputs, expectedOutputs, Map.of());
  }

  /** The delete files that apply to {@code input} (empty for none). */
  List<DeleteFile> deletesOf(DataFile input) {
    return deletes.getOrDefault(input.location(), List.of());
  }

  StructLike partition() {
    return inputs.get(0).partition();
  }

  FileStats stats() {
    return FileStats.of(inputs);
  }
}
