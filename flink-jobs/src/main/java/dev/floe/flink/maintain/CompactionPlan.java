package dev.floe.flink.maintain;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import java.io.Serializable;
import java.util.List;

/**
 * Everything the compaction job needs, fixed before it starts.
 *
 * @param catalog the catalog holding the table
 * @param table the table's name
 * @param baseSnapshotId the snapshot every group's inputs were planned from; each slice's commit is
 *     validated from it
 * @param targetFileSizeBytes files below this size are small; outputs roll at this size
 * @param slices the slices, in the operator's order
 * @param failAt a failure to inject (tests)
 * @param layout how each group's rows are ordered (the table's maintenance strategy)
 */
record CompactionPlan(
    CatalogConfig catalog,
    String table,
    long baseSnapshotId,
    long targetFileSizeBytes,
    List<PlannedSlice> slices,
    FailurePoint failAt,
    RowLayout layout)
    implements Serializable {

  CompactionPlan {
    slices = List.copyOf(slices);
  }

  /** A bin-packing plan. */
  CompactionPlan(
      CatalogConfig catalog,
      String table,
      long baseSnapshotId,
      long targetFileSizeBytes,
      List<PlannedSlice> slices,
      FailurePoint failAt) {
    this(catalog, table, baseSnapshotId, targetFileSizeBytes, slices, failAt, RowLayout.BINPACK);
  }

  List<RewriteGroup> groups() {
    return slices.stream().flatMap(s -> s.groups().stream()).toList();
  }
}
