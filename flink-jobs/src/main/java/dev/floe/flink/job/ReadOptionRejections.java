package dev.floe.flink.job;

import java.util.List;

/**
 * Whether a throwable is Iceberg refusing a read option of the query as its Flink source applies
 * the options to a scan, and how to say so.
 *
 * <ul>
 *   <li>A snapshot, ref or time the table does not have ({@code OPTIONS('snapshot-id'='1')}, {@code
 *       'tag'='nope'}, an {@code as-of-timestamp} before the first snapshot), a start snapshot that
 *       is no ancestor of the end, or two options that both pick the snapshot: an {@code
 *       IllegalArgumentException} raised by Iceberg's scan code that checks those settings, called
 *       from the source's {@code planTasks}.
 *   <li>A read option Iceberg's read configuration cannot parse: not a number ({@code
 *       'snapshot-id'='abc'}), a duration or a name of a choice: an {@code
 *       IllegalArgumentException} raised by the JDK's or Flink's parser under its own.
 * </ul>
 *
 * The same exceptions from reading manifests, from Floe or from Flink are something else.
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

  /** Where Iceberg's Flink source reads its options (hints, table properties, Flink settings). */
  private static final String READ_CONF = "org.apache.iceberg.flink.FlinkReadConf";

  /** The parser it reads them with, and its nested parsers. */
  private static final String CONF_PARSER = "org.apache.iceberg.flink.FlinkConfParser";

  /** Flink's parser of durations, which Iceberg's parser calls. */
  private static final String DURATIONS = "org.apache.flink.util.TimeUtils";

  private ReadOptionRejections() {}

  static boolean test(Throwable t) {
    return refusedScanSetting(t) || unparsableOption(t);
  }

  /** The one line to show for a throwable {@link #test} accepts. */
  static String describe(Throwable t) {
    String message = JobFailures.firstLine(t.getMessage());
    return unparsableOption(t)
        ? "a read option of an Iceberg table (a query hint or a table property) cannot be read: "
            + message
        : message
            + " (a read option of an Iceberg table: floe snapshots and floe tags list the"
            + " snapshots and refs a table has)";
  }

  private static boolean refusedScanSetting(Throwable t) {
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

  private static boolean unparsableOption(Throwable t) {
    if (!(t instanceof IllegalArgumentException)) {
      return false;
    }
    StackTraceElement[] frames = t.getStackTrace();
    boolean parsed = false;
    for (int i = 0; i < frames.length; i++) {
      String name = frames[i].getClassName();
      if (name.equals(READ_CONF)) {
        return parsed;
      }
      if (name.equals(CONF_PARSER) || name.startsWith(CONF_PARSER + "$")) {
        parsed = true;
      } else if (parsed || !(name.startsWith("java.lang.") || name.equals(DURATIONS))) {
        return false;
      }
    }
    return false;
  }
}
