package dev.floe.flink.maintain;

import dev.floe.catalog.error.InvalidInputException;
import java.io.Serializable;

/**
 * When a data file is rewritten for its delete files, whatever its size.
 *
 * @param deleteFiles rewrite once at least this many delete files apply to the file
 * @param deletedRatio rewrite once at least this share of its rows is deleted by position
 */
record DeleteThresholds(int deleteFiles, double deletedRatio) implements Serializable {

  static DeleteThresholds of(String table, int deleteFiles, double deletedRatio) {
    InvalidInputException.check(
        deleteFiles >= 1,
        "Cannot compact %s: the delete-file threshold must be 1 or more, got %d",
        table,
        deleteFiles);
    InvalidInputException.check(
        deletedRatio > 0 && deletedRatio <= 1,
        "Cannot compact %s: the deleted-row ratio threshold must be in (0, 1], got %s",
        table,
        deletedRatio);
    return new DeleteThresholds(deleteFiles, deletedRatio);
  }

  /** Never rewrite a file for its deletes alone (small files are still rewritten with them). */
  static final DeleteThresholds NEVER = new DeleteThresholds(Integer.MAX_VALUE, 2.0);
}
