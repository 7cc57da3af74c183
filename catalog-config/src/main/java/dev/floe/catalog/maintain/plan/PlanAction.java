package dev.floe.catalog.maintain.plan;

/** What a plan item does, in the order actions run on one table (as in {@code floe maintain}). */
public enum PlanAction {
  /** Rewrite a slice's small or delete-laden files (a Flink job, one commit for the slice). */
  COMPACT("compact"),
  /**
   * Merge a slice's position delete files into one per partition, dropping entries for data files
   * that are gone (no Flink job, one commit for the slice; rows unchanged).
   */
  REWRITE_POSITION_DELETES("rewrite-position-deletes"),
  /** Rewrite the current snapshot's data manifests, clustered by partition. */
  REWRITE_MANIFESTS("rewrite-manifests"),
  /** Expire snapshots beyond the table's retention. */
  EXPIRE("expire"),
  /** Delete unreferenced files older than the orphan minimum age. */
  ORPHANS("orphans");

  private final String text;

  PlanAction(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
