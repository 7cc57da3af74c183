package dev.floe.catalog.snapshot;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.util.SnapshotUtil;

/** The snapshots a table's refs hold: every branch's head and history, and every tag's snapshot. */
final class HeldSnapshots {
  private HeldSnapshots() {}

  /**
   * @param refs the table's refs
   * @param lookup the table's snapshots by id
   * @param except a ref to leave out (the branch being dropped), or null
   * @return the ids of the snapshots the other refs hold
   */
  static Set<Long> ids(
      Map<String, SnapshotRef> refs, Function<Long, Snapshot> lookup, String except) {
    Set<Long> held = new HashSet<>();
    refs.forEach(
        (refName, ref) -> {
          if (refName.equals(except)) {
            return;
          }
          if (ref.isBranch()) {
            SnapshotUtil.ancestorsOf(ref.snapshotId(), lookup)
                .forEach(s -> held.add(s.snapshotId()));
          } else {
            held.add(ref.snapshotId());
          }
        });
    return held;
  }
}
