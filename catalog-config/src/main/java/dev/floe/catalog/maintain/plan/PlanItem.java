package dev.floe.catalog.maintain.plan;

import java.util.List;
import java.util.Optional;

/**
 * One thing a maintenance plan would do, and why.
 *
 * @param table {@code namespace.table}
 * @param action what it does
 * @param slice the slice compaction rewrites ({@code column=value}); empty for table-wide actions
 * @param score files it removes from the table's read path or storage: small files replaced minus
 *     files written, delete files removed, manifests merged, snapshots expired with the files only
 *     they keep, orphan files deleted. The plan is ranked by it, highest first
 * @param reasons the numbers against the policy, one line each
 * @param before the quantity the action improves, now (e.g. 40 files)
 * @param after the same, predicted
 * @param unit what {@code before} and {@code after} count, e.g. {@code data files}
 * @param bytesToRewrite bytes the action reads and writes again (compaction); 0 for metadata-only
 *     actions
 * @param bytesToDelete bytes it deletes from storage (orphans); 0 when unknown or none
 */
public record PlanItem(
    String table,
    PlanAction action,
    Optional<String> slice,
    long score,
    List<String> reasons,
    long before,
    long after,
    String unit,
    long bytesToRewrite,
    long bytesToDelete) {

  public PlanItem {
    reasons = List.copyOf(reasons);
  }

  /** The target as one word: {@code table} or {@code table@slice}. */
  public String target() {
    return slice.map(s -> table + " " + s).orElse(table);
  }
}
