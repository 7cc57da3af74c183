package dev.floe.catalog.maintain;

import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.RetentionSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What snapshot expiry does, before ({@code committed == false}) or after it is done.
 *
 * @param table the table's name
 * @param retention the retention applied
 * @param now the clock's time the plan was made at
 * @param expireOlderThan snapshots committed before this may expire by age (null: no age limit)
 * @param expired the snapshots removed, oldest first
 * @param droppedRefs tags whose max-ref-age ({@code floe tag --retain}) has passed; expiry drops
 *     them
 * @param keptSnapshots how many snapshots stay
 * @param filesToDelete files only the expired snapshots reference, by normalised location: what
 *     expiry deletes (data, delete, manifest, manifest list and statistics files)
 * @param committed true once expiry was committed
 * @param deletedFiles files actually deleted (empty before the commit)
 */
public record ExpirePlan(
    String table,
    RetentionSpec retention,
    Instant now,
    Instant expireOlderThan,
    List<ExpiredSnapshot> expired,
    List<String> droppedRefs,
    int keptSnapshots,
    Map<String, FileKind> filesToDelete,
    boolean committed,
    List<String> deletedFiles)
    implements ActionOutcome {

  public ExpirePlan {
    expired = List.copyOf(expired);
    droppedRefs = List.copyOf(droppedRefs);
    filesToDelete = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(filesToDelete));
    deletedFiles = List.copyOf(deletedFiles);
  }

  /**
   * The plan as committed: the snapshots the commit removed, how many the table keeps, and the
   * files deleted (the plan's, and any other file of a removed snapshot Iceberg's cleanup deleted).
   */
  ExpirePlan committed(List<ExpiredSnapshot> removed, int kept, List<String> deleted) {
    return new ExpirePlan(
        table,
        retention,
        now,
        expireOlderThan,
        removed,
        droppedRefs,
        kept,
        filesToDelete,
        true,
        deleted);
  }

  ExpirePlan withDeleted(List<String> deleted) {
    return new ExpirePlan(
        table,
        retention,
        now,
        expireOlderThan,
        expired,
        droppedRefs,
        keptSnapshots,
        filesToDelete,
        true,
        deleted);
  }

  /** Whether there is anything to expire. */
  public boolean isEmpty() {
    return expired.isEmpty() && droppedRefs.isEmpty();
  }

  @Override
  public boolean changed() {
    return committed && !isEmpty();
  }

  @Override
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            "retention: %s (a snapshot is kept while either limit keeps it; tagged snapshots and"
                + " branch heads, audit branches included, are always kept)",
            describe(retention)));
    if (isEmpty()) {
      lines.add(String.format("nothing to expire: all %d snapshots are kept", keptSnapshots));
      return lines;
    }
    lines.add(
        String.format(
            "%s %d snapshot%s, keeping %d:",
            committed ? "expired" : "would expire",
            expired.size(),
            expired.size() == 1 ? "" : "s",
            keptSnapshots));
    for (ExpiredSnapshot snapshot : expired) {
      lines.add(
          String.format(
              "  %d  %s%s",
              snapshot.snapshotId(),
              snapshot.committedAt(),
              snapshot.runId() == null ? "" : "  run " + snapshot.runId()));
    }
    if (!droppedRefs.isEmpty()) {
      lines.add(
          (committed ? "dropped" : "would drop")
              + " tags past their --retain: "
              + String.join(", ", droppedRefs));
    }
    lines.add(
        committed
            ? String.format("deleted %d files (%s)", deletedFiles.size(), deletedKinds())
            : String.format(
                "would delete %d files no kept snapshot references (%s)",
                filesToDelete.size(), kinds(filesToDelete)));
    return lines;
  }

  @Override
  public Map<String, Object> details() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("keep_last", retention.keepLast());
    map.put("max_age", retention.maxAge() == null ? null : retention.maxAge().toString());
    map.put("now", now.toString());
    map.put("expire_older_than", expireOlderThan == null ? null : expireOlderThan.toString());
    map.put(
        "expired_snapshots",
        expired.stream()
            .map(
                s -> {
                  Map<String, Object> e = new LinkedHashMap<>();
                  e.put("snapshot_id", s.snapshotId());
                  e.put("committed_at", s.committedAt().toString());
                  e.put("run_id", s.runId());
                  return e;
                })
            .toList());
    map.put("dropped_tags", droppedRefs);
    map.put("kept_snapshots", keptSnapshots);
    map.put("files_to_delete", filesToDelete.size());
    map.put("files_to_delete_by_kind", byKind(filesToDelete));
    map.put("deleted_files", committed ? deletedFiles.size() : null);
    map.put("deleted_files_by_kind", committed ? byKind(deletedByKind()) : null);
    return map;
  }

  static String describe(RetentionSpec retention) {
    List<String> parts = new ArrayList<>();
    if (retention.keepLast() != null) {
      parts.add("keep_last=" + retention.keepLast());
    }
    if (retention.maxAge() != null) {
      parts.add("max_age=" + FloeTableProperties.iso(retention.maxAge()));
    }
    return String.join(", ", parts);
  }

  /** The deleted files, each of the kind the plan found it to be. */
  private Map<String, FileKind> deletedByKind() {
    Map<String, FileKind> deleted = new LinkedHashMap<>();
    deletedFiles.stream()
        .filter(filesToDelete::containsKey)
        .forEach(location -> deleted.put(location, filesToDelete.get(location)));
    return deleted;
  }

  /** The kinds of the files deleted, with those the plan did not list counted as other files. */
  private String deletedKinds() {
    long other = deletedFiles.stream().filter(f -> !filesToDelete.containsKey(f)).count();
    String planned = kinds(deletedByKind());
    return other == 0
        ? planned
        : (planned.equals("none") ? "" : planned + ", ") + other + " other file(s)";
  }

  static Map<String, Long> byKind(Map<String, FileKind> files) {
    Map<String, Long> counts = new LinkedHashMap<>();
    ReferencedFiles.countByKind(files)
        .forEach(
            (kind, count) -> counts.put(kind.name().toLowerCase(java.util.Locale.ROOT), count));
    return counts;
  }

  static String kinds(Map<String, FileKind> files) {
    Map<FileKind, Long> counts = ReferencedFiles.countByKind(files);
    return counts.isEmpty()
        ? "none"
        : counts.entrySet().stream()
            .map(e -> e.getValue() + " " + e.getKey().noun() + (e.getValue() == 1 ? "" : "s"))
            .collect(Collectors.joining(", "));
  }
}
