package dev.floe.flink.commit;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.check.CheckStats;
import java.io.Serializable;
import java.util.List;
import org.apache.iceberg.DataFile;

/**
 * What flows into the single committer: each writer's result, and duplicated keys. A job that loads
 * several slices at once sends each writer's result per slice ({@link SliceWritten}), and folds the
 * slice into a duplicate's check index ({@code slice * checks + check}).
 */
public sealed interface CommitMessage extends Serializable {

  /** One writer subtask's finished output: its data files, content hash and check stats. */
  record Written(int subtask, List<DataFile> files, ContentHash hash, CheckStats stats)
      implements CommitMessage {}

  /**
   * Keys (by their 64-bit hashes) that occur more than once, for the unique check at an index; not
   * yet confirmed against the keys themselves.
   */
  record DuplicateKeyHashes(int checkIndex, long[] hashes) implements CommitMessage {}

  /** One writer subtask's finished output for the slice at {@code slice} of a multi-slice job. */
  record SliceWritten(int slice, Written written) implements CommitMessage {}
}
