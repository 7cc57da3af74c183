package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Refuses to write a table whose Iceberg properties hold a value Iceberg cannot parse, set outside
 * {@code floe tables apply} (which refuses such values: {@link TableSpecParser}). Iceberg reads
 * some of them only while it builds the snapshot, after every data file was written: the commit
 * would fail then, with the files left behind, and a parse error mistaken for a lost answer. And
 * refuses to give a table such values outside {@code floe tables apply} ({@link #requireSettable}).
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
    firstProblem(properties, IcebergPropertyValues::failure)
        .ifPresent(
            problem -> {
              throw InvalidInputException.of(
                  "Cannot %s: property %s of %s: %s; set a valid value in the table's spec and run"
                      + " `floe tables apply`",
                  action, problem.property(), table, problem.reason());
            });
  }

  /**
   * Refuses to give a table, outside {@code floe tables apply} (a {@code CREATE TABLE} or {@code
   * ALTER TABLE ... SET} of {@code floe sql}), a value {@code floe tables apply} refuses in a spec
   * too ({@link IcebergPropertyValues#problem}): one Iceberg cannot parse, which would leave a
   * table nobody can write ({@link #require}), or a boolean it would misread.
   *
   * @param action what is refused, for the message ({@code run SQL statement 1 (line 1 of ...)})
   * @param table the table's name
   * @param properties the properties the table would be given (not those it keeps)
   * @throws InvalidInputException naming the first such property (by name) and its value
   */
  public static void requireSettable(String action, String table, Map<String, String> properties) {
    firstProblem(properties, IcebergPropertyValues::problem)
        .ifPresent(
            problem -> {
              throw InvalidInputException.of(
                  "Cannot %s: property %s of %s: %s",
                  action, problem.property(), table, problem.reason());
            });
  }

  private record Problem(String property, String reason) {}

  private static Optional<Problem> firstProblem(
      Map<String, String> properties, BiFunction<String, String, Optional<String>> rule) {
    for (Map.Entry<String, String> property : new TreeMap<>(properties).entrySet()) {
      if (!IcebergPropertyValues.isIcebergProperty(property.getKey())) {
        continue;
      }
      Optional<String> reason = rule.apply(property.getKey(), property.getValue());
      if (reason.isPresent()) {
        return Optional.of(new Problem(property.getKey(), reason.get()));
      }
    }
    return Optional.empty();
  }
}
