package dev.floe.flink.maintain;

import dev.floe.catalog.lineage.ContentHash;
import java.io.Serializable;
import java.util.List;
import org.apache.iceberg.DataFile;

/**
 * One group, rewritten: what a rewriter hands to the committer.
 *
 * @param groupIndex the group's index in the plan
 * @param sliceIndex its slice
 * @param outputs the new data files (not in any snapshot yet)
 * @param read the content hash of the rows read from the group's inputs
 * @param written the content hash of the rows read back from {@code outputs}
 */
record Rewritten(
    int groupIndex, int sliceIndex, List<DataFile> outputs, ContentHash read, ContentHash written)
    implements Serializable {

  Rewritten {
    outputs = List.copyOf(outputs);
  }
}
