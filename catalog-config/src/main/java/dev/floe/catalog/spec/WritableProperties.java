package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Refuses to write a table whose Iceberg properties hold a value Iceberg cannot parse, set outside
 * {@code floe tables apply} (which refuses such values: {@link TableSpecParser}). Iceberg reads
 * some of them only while it builds the snapshot, after every data file was written: the commit
 * would fail then, with the files left behind, and a parse error mistaken for a lost answer.
 */
public final class WritableProperties {
  private WritableProperties() {}

  /**
   * @param action what is refused, for the message ({@code run fact_orders_daily})
   * @param table the table's name
   * @param properties its properties
   * @throws InvalidInputException naming the first property (by name) Iceberg cannot parse
   */
  public static void require(String action, String table, Map<String, String> properties) {
    for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
      if (!IcebergPropertyValues.isIcebergProperty(property.getKey())) {
        continue;
      }
      Optional<String> problem =
          IcebergPropertyValues.failure(property.getKey(), property.getValue());
      if (problem.isPresent()) {
        throw InvalidInputException.of(
            "Cannot %s: property %s of %s: %s; set a valid value in the table's spec and run"
                + " `floe tables apply`",
            action, property.getKey(), table, problem.get());
      }
    }
  }
}
