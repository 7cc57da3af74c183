package dev.floe.catalog.maintain;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableProperties;

/**
 * How long after its snapshot's commit snapshot expiry may drop a branch or tag, as Iceberg's
 * {@code RemoveSnapshots} decides it: the ref's own max-ref-age, else the table's {@code
 * history.expire.max-ref-age-ms}. Main is never dropped.
 */
public final class RefAges {
  private RefAges() {}

  /**
   * The ref's max age in milliseconds, or null when nothing limits it (main, or neither the ref nor
   * the table sets one).
   */
  public static Long maxRefAgeMs(
      Map<String, String> tableProperties, String name, SnapshotRef ref) {
    if (name.equals(SnapshotRef.MAIN_BRANCH)) {
      return null;
    }
    if (ref.maxRefAgeMs() != null) {
      return ref.maxRefAgeMs();
    }
    String value = tableProperties.get(TableProperties.MAX_REF_AGE_MS);
    if (value == null) {
      return null;
    }
    long table;
    try {
      table = Long.parseLong(value); // as Iceberg parses it
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "Cannot read table property %s=%s: expected milliseconds (Iceberg's snapshot expiry"
              + " fails on it too); set a number or remove it",
          TableProperties.MAX_REF_AGE_MS, value);
    }
    return table == TableProperties.MAX_REF_AGE_MS_DEFAULT ? null : table;
  }
}
