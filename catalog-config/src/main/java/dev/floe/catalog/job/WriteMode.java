package dev.floe.catalog.job;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a job's result replaces what the target holds. Every mode is rerun-safe; none appends. */
public enum WriteMode {
  /** Replace exactly the slice, in one snapshot. */
  OVERWRITE("overwrite"),
  /** Upsert by key; a target row changes only when the source's ordering value is newer. */
  MERGE("merge"),
  /** Insert the rows whose key the target does not hold yet; never change a row. */
  INSERT_IF_ABSENT("insert-if-absent"),
  /** Rebuild a small table and replace its whole content in one snapshot. */
  SWAP("swap");

  /**
   * How lineage records a {@code floe maintain --compact} commit. Not a manifest mode: a compaction
   * only rewrites files, and its commit is refused unless the rows read and written hash equal.
   */
  public static final String COMPACT_LINEAGE_MODE = "compact";

  private final String text;

  WriteMode(String text) {
    this.text = text;
  }

  /**
   * True when a commit leaves its scope holding exactly the rows it wrote, so the content hash in
   * its lineage is the scope's whole content; merge and insert-if-absent hash only their batch.
   */
  public boolean replacesScope() {
    return this == OVERWRITE || this == SWAP;
  }

  /** {@link #replacesScope()} for a mode as recorded in lineage; false for an unknown text. */
  public static boolean replacesScope(String recordedMode) {
    return Arrays.stream(values()).anyMatch(m -> m.text.equals(recordedMode) && m.replacesScope());
  }

  /**
   * True for a commit recorded as changing no row at all (a compaction): whatever defined a slice's
   * content before it still defines it, so history walks look through it.
   */
  public static boolean preservesContent(String recordedMode) {
    return COMPACT_LINEAGE_MODE.equals(recordedMode);
  }

  /** True for the modes that match source and target rows by key. */
  public boolean isKeyed() {
    return this == MERGE || this == INSERT_IF_ABSENT;
  }

  public String text() {
    return text;
  }

  public static WriteMode parse(String value, String source) {
    for (WriteMode mode : values()) {
      if (mode.text.equals(value.toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    throw InvalidInputException.of(
        "Cannot read %s at 'mode': unknown mode '%s' (expected one of %s; there is no append"
            + " mode, because an append is not rerun-safe)",
        source,
        value,
        Arrays.stream(values()).map(WriteMode::text).collect(Collectors.joining(", ")));
  }
}
