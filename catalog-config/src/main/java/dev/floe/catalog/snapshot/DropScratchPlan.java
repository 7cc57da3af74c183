package dev.floe.catalog.snapshot;

import dev.floe.catalog.maintain.FileKind;
import java.util.List;
import java.util.Map;

/**
 * What dropping a scratch branch does.
 *
 * @param table the table's name
 * @param branch the scratch branch
 * @param snapshotId the snapshot the branch pointed at
 * @param expiresSnapshot whether that snapshot goes too (false when another ref still uses it)
 * @param files the files only that snapshot references (manifest list, manifests, data and delete
 *     files it added), by normalised location: what is deleted
 * @param deleted the files actually deleted; empty for {@link DropScratch#apply()}
 */
public record DropScratchPlan(
    String table,
    String branch,
    long snapshotId,
    boolean expiresSnapshot,
    Map<String, FileKind> files,
    List<String> deleted) {

  public DropScratchPlan {
    files = Map.copyOf(files);
    deleted = List.copyOf(deleted);
  }
}
