package dev.floe.flink.maintain;

/**
 * Where a compaction may be told to fail on purpose (tests only): each point lies after data files
 * were written and before any commit, so the table must come out unchanged and without new files.
 */
enum CompactionFailure {
  NONE,
  /** A rewriter throws after it wrote and handed on the files of its first group. */
  REWRITER_AFTER_FIRST_GROUP,
  /** The committer throws before its first commit, with every group's files written. */
  COMMITTER_BEFORE_COMMIT
}
