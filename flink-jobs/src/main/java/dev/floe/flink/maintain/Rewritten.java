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
 * @param rowsInInputs every row found in the inputs, before their delete files were applied (to
 *     compare with the inputs' metadata)
 * @param lineageRead on a table with row lineage, the hash of the rows read with their {@code
 *     _row_id} and {@code _last_updated_sequence_number}; empty otherwise
 * @param lineageWritten the same, of the rows read back from {@code outputs}
 * @param refusal why the group must not be committed, found while rewriting it (its outputs are
 *     then partial), or null
 */
record Rewritten(
    int groupIndex,
    int sliceIndex,
    List<DataFile> outputs,
    ContentHash read,
    ContentHash written,
    long rowsInInputs,
    ContentHash lineageRead,
    ContentHash lineageWritten,
    String refusal)
    implements Serializable {

  Rewritten {
    outputs = List.copyOf(outputs);
  }

  /** A rewrite that found nothing to refuse. */
  Rewritten(
      int groupIndex,
      int sliceIndex,
      List<DataFile> outputs,
      ContentHash read,
      ContentHash written,
      long rowsInInputs,
      ContentHash lineageRead,
      ContentHash lineageWritten) {
    this(
        groupIndex,
        sliceIndex,
        outputs,
        read,
        written,
        rowsInInputs,
        lineageRead,
        lineageWritten,
        null);
  }

  /** A rewrite of inputs without delete files: every row found in them was read. */
  Rewritten(
      int groupIndex,
      int sliceIndex,
      List<DataFile> outputs,
      ContentHash read,
      ContentHash written) {
    this(
        groupIndex,
        sliceIndex,
        outputs,
        read,
        written,
        read.rows(),
        ContentHash.empty(),
        ContentHash.empty());
  }
}
