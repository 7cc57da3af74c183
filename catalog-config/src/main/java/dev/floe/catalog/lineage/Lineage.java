package dev.floe.catalog.lineage;

import dev.floe.catalog.error.Shown;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;

/**
 * What one Floe commit records about itself in the snapshot summary (keys in {@link LineageKeys}).
 *
 * @param runKey deterministic id of the run's intent (same inputs, same key)
 * @param runId unique per attempt; finds a commit whose outcome was unknown
 * @param job the job manifest's name
 * @param mode the write mode, e.g. overwrite
 * @param slice the slice label, e.g. {@code order_date=[2026-10-03,2026-10-04)}
 * @param codeVersion the Floe build that ran
 * @param rows rows written
 * @param contentHash order-independent hash of the rows written
 * @param sourceSnapshots source table name to the snapshot id the run read (its Flink source is
 *     pinned to the snapshot current when the run was planned; runs of Floe 0.1 before pinning
 *     recorded the planned snapshot, a lower bound of what they read)
 * @param backfillId the backfill this run belongs to, or null
 * @param sourceSnapshotsUntil written only by Floe before sources were pinned, and still read: for
 *     sources that committed while such a run was in flight, their snapshot at commit time (an
 *     upper bound of what it read). Empty for every run that read pinned sources.
 */
public record Lineage(
    String runKey,
    String runId,
    String job,
    String mode,
    String slice,
    String codeVersion,
    long rows,
    String contentHash,
    Map<String, Long> sourceSnapshots,
    String backfillId,
    Map<String, Long> sourceSnapshotsUntil)
    implements Serializable {

  public Lineage {
    sourceSnapshots = new TreeMap<>(sourceSnapshots);
    sourceSnapshotsUntil = new TreeMap<>(sourceSnapshotsUntil);
  }

  /** A lineage whose sources stood still while the run was in flight. */
  public Lineage(
      String runKey,
      String runId,
      String job,
      String mode,
      String slice,
      String codeVersion,
      long rows,
      String contentHash,
      Map<String, Long> sourceSnapshots,
      String backfillId) {
    this(
        runKey,
        runId,
        job,
        mode,
        slice,
        codeVersion,
        rows,
        contentHash,
        sourceSnapshots,
        backfillId,
        Map.of());
  }

  /** The newest snapshot of {@code source} the run may have read. */
  public Long latestPossiblyRead(String source) {
    return sourceSnapshotsUntil.getOrDefault(source, sourceSnapshots.get(source));
  }

  /**
   * This lineage with upper bounds for the sources that moved during the run, as Floe wrote them
   * before sources were pinned (kept so that such snapshots can be built and read in tests).
   */
  public Lineage withSourcesUntil(Map<String, Long> until) {
    return new Lineage(
        runKey,
        runId,
        job,
        mode,
        slice,
        codeVersion,
        rows,
        contentHash,
        sourceSnapshots,
        backfillId,
        until);
  }

  /** This lineage with the written content filled in (known only after the writers finished). */
  public Lineage withContent(ContentHash content) {
    return new Lineage(
        runKey,
        runId,
        job,
        mode,
        slice,
        codeVersion,
        content.rows(),
        content.encode(),
        sourceSnapshots,
        backfillId,
        sourceSnapshotsUntil);
  }

  public Map<String, String> toSummary() {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put(LineageKeys.RUN_KEY, runKey);
    summary.put(LineageKeys.RUN_ID, runId);
    summary.put(LineageKeys.JOB, job);
    summary.put(LineageKeys.MODE, mode);
    summary.put(LineageKeys.SLICE, slice);
    summary.put(LineageKeys.CODE_VERSION, codeVersion);
    summary.put(LineageKeys.ROWS, Long.toString(rows));
    summary.put(LineageKeys.CONTENT_HASH, contentHash);
    summary.put(LineageKeys.SOURCE_SNAPSHOTS, encodeSources(sourceSnapshots));
    if (backfillId != null) {
      summary.put(LineageKeys.BACKFILL_ID, backfillId);
    }
    if (!sourceSnapshotsUntil.isEmpty()) {
      summary.put(LineageKeys.SOURCE_SNAPSHOTS_UNTIL, encodeSources(sourceSnapshotsUntil));
    }
    return summary;
  }

  /**
   * The lineage of {@code snapshot}, or empty when a writer other than Floe made it.
   *
   * @throws IllegalStateException naming the snapshot when its summary holds Floe's keys with
   *     values Floe never writes (another tool wrote them): a run cannot tell what such a commit
   *     replaced, so it stops rather than guess; read-only commands list the snapshot with {@link
   *     #problem}
   */
  public static Optional<Lineage> of(Snapshot snapshot) {
    try {
      return fromSummary(snapshot.summary());
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          String.format(
              "Cannot read the Floe lineage of snapshot %d: %s; Floe never writes such a value"
                  + " (another tool did): move main off the snapshot with floe rollback",
              snapshot.snapshotId(), unreadable(e)),
          e);
    }
  }

  /**
   * Why {@code summary} holds Floe's keys but no lineage Floe can read, or empty when it holds a
   * readable one or none: for commands that list snapshots, which show such a snapshot instead of
   * failing on it.
   */
  public static Optional<String> problem(Map<String, String> summary) {
    try {
      fromSummary(summary);
      return Optional.empty();
    } catch (IllegalStateException e) {
      return Optional.of(unreadable(e));
    }
  }

  /**
   * The lineage {@code summary} holds, or empty when it holds none or none Floe can read ({@link
   * #problem} says why): for listings, which show every snapshot.
   */
  public static Optional<Lineage> readable(Map<String, String> summary) {
    try {
      return fromSummary(summary);
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  private static String unreadable(IllegalStateException e) {
    return e.getMessage().substring(UNREADABLE.length());
  }

  private static final String UNREADABLE = "Cannot read a snapshot's Floe lineage: ";

  /**
   * The lineage a snapshot summary holds, or empty when a writer other than Floe made it; {@link
   * #of(Snapshot)} names the snapshot in its error.
   */
  public static Optional<Lineage> fromSummary(Map<String, String> summary) {
    if (summary == null || !summary.containsKey(LineageKeys.RUN_ID)) {
      return Optional.empty();
    }
    return Optional.of(
        new Lineage(
            summary.get(LineageKeys.RUN_KEY),
            summary.get(LineageKeys.RUN_ID),
            summary.get(LineageKeys.JOB),
            summary.get(LineageKeys.MODE),
            summary.get(LineageKeys.SLICE),
            summary.get(LineageKeys.CODE_VERSION),
            number(LineageKeys.ROWS, summary.getOrDefault(LineageKeys.ROWS, "0")),
            summary.get(LineageKeys.CONTENT_HASH),
            decodeSources(summary.getOrDefault(LineageKeys.SOURCE_SNAPSHOTS, "")),
            summary.get(LineageKeys.BACKFILL_ID),
            decodeSources(summary.getOrDefault(LineageKeys.SOURCE_SNAPSHOTS_UNTIL, ""))));
  }

  static String encodeSources(Map<String, Long> sources) {
    return sources.entrySet().stream()
        .map(e -> e.getKey() + "@" + e.getValue())
        .collect(Collectors.joining(","));
  }

  static Map<String, Long> decodeSources(String text) {
    Map<String, Long> sources = new TreeMap<>();
    if (text.isBlank()) {
      return sources;
    }
    for (String entry : text.split(",")) {
      int at = entry.lastIndexOf('@');
      if (at <= 0) {
        throw new IllegalStateException(
            String.format(
                UNREADABLE + "a source snapshot is '%s', not <table>@<snapshot id>",
                Shown.value(entry)));
      }
      sources.put(entry.substring(0, at), number("a source snapshot id", entry.substring(at + 1)));
    }
    return sources;
  }

  /**
   * A number of a snapshot's lineage. Another tool may have written the summary: a value that is
   * not a number is named in the error, never reported as a bare {@link NumberFormatException},
   * which callers would read as a query's evaluation error.
   */
  private static long number(String what, String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          String.format(UNREADABLE + "%s is '%s', not a whole number", what, Shown.value(text)), e);
    }
  }
}
