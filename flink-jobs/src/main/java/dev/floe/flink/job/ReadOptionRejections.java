package dev.floe.flink.job;

import java.util.List;

/**
 * Whether a throwable is Iceberg refusing a read option of the query, as its Flink source applies
 * the options to a scan: a snapshot, ref or time the table does not have ({@code
 * OPTIONS('snapshot-id'='1')}, {@code 'tag'='nope'}, an {@code as-of-timestamp} before the first
 * snapshot), a start snapshot that is no ancestor of the end, or two options that both pick the
 * snapshot. Only an {@code IllegalArgumentException} raised by Iceberg's scan code that checks
 * those settings, called from the source's {@code planTasks}: the same exception from reading
 * manifests, from Floe or from Flink is something else.
 */
final class ReadOptionRejections {

  /** Where Iceberg's Flink source sets a scan's snapshot, ref, time or range from the options. */
  private static final String APPLIES_OPTIONS = "org.apache.iceberg.flink.source.FlinkSplitPlanner";

  /** Iceberg's code that checks a scan's snapshot, ref, time or range; nothing that reads files. */
  private static final List<String> SCAN_SETTINGS =
      List.of(
          "org.apache.iceberg.relocated.com.google.common.base.Preconditions",
          "org.apache.iceberg.SnapshotScan",
          "org.apache.iceberg.BaseTableScan",
          "org.apache.iceberg.BaseIncrementalScan",
          "org.apache.iceberg.BaseIncrementalAppendScan",
          "org.apache.iceberg.util.SnapshotUtil");

  private ReadOptionRejections() {}

  static boolean test(Throwable t) {
    if (!(t instanceof IllegalArgumentException)) {
      return false;
    }
    StackTraceElement[] frames = t.getStackTrace();
    for (int i = 0; i < frames.length; i++) {
      String name = frames[i].getClassName();
      if (name.equals(APPLIES_OPTIONS)) {
        return i > 0 && frames[i].getMethodName().equals("planTasks");
      }
      if (!SCAN_SETTINGS.contains(name)) {
        return false;
      }
    }
    return false;
  }
}
