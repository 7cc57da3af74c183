package dev.floe.catalog.lineage;

/**
 * The snapshot-summary keys every Floe commit writes. Operators read them with `floe snapshots`.
 */
public final class LineageKeys {
  public static final String PREFIX = "floe.";
  public static final String RUN_KEY = PREFIX + "run-key";
  public static final String RUN_ID = PREFIX + "run-id";
  public static final String JOB = PREFIX + "job";
  public static final String MODE = PREFIX + "mode";
  public static final String SLICE = PREFIX + "slice";
  public static final String CODE_VERSION = PREFIX + "code-version";
  public static final String ROWS = PREFIX + "rows";
  public static final String CONTENT_HASH = PREFIX + "content-hash";
  public static final String SOURCE_SNAPSHOTS = PREFIX + "source-snapshots";
  public static final String BACKFILL_ID = PREFIX + "backfill-id";

  /** On a `floe revert` commit: the run id whose effect it undid. */
  public static final String REVERTS = PREFIX + "reverts";

  /**
   * On a `floe revert --force` commit: the run ids, comma-separated, of the later runs it undid
   * whole (their slice lies inside the reverted run's). Absent when there are none. A later run it
   * undid only in part (a month over a reverted day) is not listed: it still holds the rest.
   */
  public static final String DISCARDS = PREFIX + "discards";

  /**
   * On a compaction commit: the rows it rewrote and their content hash. Not {@link #ROWS} / {@link
   * #CONTENT_HASH}: a compaction may rewrite only some files of a slice, so its numbers do not
   * describe the slice.
   */
  public static final String COMPACTED_ROWS = PREFIX + "compacted-rows";

  public static final String COMPACTED_CONTENT_HASH = PREFIX + "compacted-content-hash";

  /** On a `floe publish` commit that re-applied an audit branch's snapshot: that snapshot's id. */
  public static final String PUBLISHED_FROM = PREFIX + "published-from";

  /** Only when a source committed during the run: its snapshot at commit time. */
  public static final String SOURCE_SNAPSHOTS_UNTIL = PREFIX + "source-snapshots-until";

  private LineageKeys() {}
}
