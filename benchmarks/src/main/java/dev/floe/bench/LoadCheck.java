package dev.floe.bench;

import java.util.Map;

/**
 * Checks a plain Iceberg load of the slice (a path without Floe's lineage) from its snapshot: a new
 * snapshot whose {@code added-records} and {@code total-records} both equal the slice's rows, so
 * the overwrite replaced the slice and left nothing behind. The rows themselves are compared once
 * after the rounds, by content hash ({@code deep verify}).
 */
final class LoadCheck {
  private LoadCheck() {}

  /**
   * @param path the path's name, for the message
   * @param head the target's current snapshot id, or null when it has none
   * @param previous the head after the path's previous run, or null for its first run
   * @param summary the head's summary
   * @param rows rows the slice (and the whole target) must hold
   * @throws IllegalStateException when the load is not a new snapshot holding exactly {@code rows}
   */
  static void verify(
      String path, Long head, Long previous, Map<String, String> summary, long rows) {
    check(path, head != null, "no snapshot");
    check(path, !head.equals(previous), "no new snapshot");
    String added = summary.get("added-records");
    String total = summary.get("total-records");
    check(
        path, String.valueOf(rows).equals(added), "added-records " + added + ", expected " + rows);
    check(
        path, String.valueOf(rows).equals(total), "total-records " + total + ", expected " + rows);
  }

  private static void check(String path, boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("Wrong result of " + path + ": " + what);
    }
  }
}
