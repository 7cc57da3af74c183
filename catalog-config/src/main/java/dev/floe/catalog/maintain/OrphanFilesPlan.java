package dev.floe.catalog.maintain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What orphan removal does, before ({@code committed == false}) or after it is done.
 *
 * @param table the table's name
 * @param location the table location that was listed
 * @param minAge the minimum age of a file to be deleted
 * @param now the clock's time the plan was made at
 * @param listedFiles files found under the location
 * @param referencedFiles listed files the table references (any snapshot, ref or metadata file)
 * @param orphans unreferenced files old enough to delete, oldest first
 * @param youngOrphans unreferenced files younger than {@code minAge}: kept, they may belong to a
 *     job that has not committed yet
 * @param committed true once the orphans were deleted
 */
public record OrphanFilesPlan(
    String table,
    String location,
    Duration minAge,
    Instant now,
    int listedFiles,
    int referencedFiles,
    List<OrphanFile> orphans,
    List<OrphanFile> youngOrphans,
    boolean committed)
    implements ActionOutcome {

  public OrphanFilesPlan {
    orphans = List.copyOf(orphans);
    youngOrphans = List.copyOf(youngOrphans);
  }

  /** Total size of the orphans to delete. */
  public long orphanBytes() {
    return orphans.stream().mapToLong(OrphanFile::sizeBytes).sum();
  }

  @Override
  public boolean changed() {
    return committed && !orphans.isEmpty();
  }

  @Override
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            "listed %d files under %s: %d referenced by the table; minimum age %s",
            listedFiles, location, referencedFiles, minAge));
    if (orphans.isEmpty()) {
      lines.add("no orphan files older than " + minAge);
    } else {
      lines.add(
          String.format(
              "%s %d orphan file%s (%s):",
              committed ? "deleted" : "would delete",
              orphans.size(),
              orphans.size() == 1 ? "" : "s",
              Bytes.format(orphanBytes())));
      for (OrphanFile file : orphans) {
        lines.add(
            String.format(
                "  %s  %s  age %s", file.location(), Bytes.format(file.sizeBytes()), file.age()));
      }
    }
    if (!youngOrphans.isEmpty()) {
      lines.add(
          String.format(
              "kept %d unreferenced file%s younger than %s (a running job's uncommitted files"
                  + " look like this)",
              youngOrphans.size(), youngOrphans.size() == 1 ? "" : "s", minAge));
    }
    return lines;
  }

  @Override
  public Map<String, Object> details() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("location", location);
    map.put("min_age", minAge.toString());
    map.put("now", now.toString());
    map.put("listed_files", listedFiles);
    map.put("referenced_files", referencedFiles);
    map.put(committed ? "deleted" : "would_delete", orphans.stream().map(this::toMap).toList());
    map.put("orphan_bytes", orphanBytes());
    map.put("young_unreferenced_files", youngOrphans.size());
    return map;
  }

  private Map<String, Object> toMap(OrphanFile file) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("path", file.location());
    map.put("size_bytes", file.sizeBytes());
    map.put("created_at", file.createdAt().toString());
    map.put("age", file.age().toString());
    return map;
  }
}
