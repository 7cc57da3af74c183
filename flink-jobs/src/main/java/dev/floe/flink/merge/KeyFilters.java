package dev.floe.flink.merge;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Type;

/**
 * The rows that may hold one of a batch's keys, as an Iceberg filter: per key column an IN list, or
 * for a large batch the range between its smallest and largest value. Iceberg evaluates it against
 * a file's partition and column bounds, so it stays narrow without listing every key.
 */
final class KeyFilters {
  /** Beyond this many values an IN list costs Iceberg more than a range saves. */
  static final int MAX_IN_VALUES = 1000;

  private KeyFilters() {}

  static Expression of(Table table, Map<String, ? extends Collection<Comparable<?>>> keyValues) {
    Expression all = Expressions.alwaysTrue();
    for (Map.Entry<String, ? extends Collection<Comparable<?>>> column : keyValues.entrySet()) {
      Collection<Comparable<?>> values = column.getValue();
      if (values.isEmpty()) {
        return Expressions.alwaysFalse();
      }
      String name = column.getKey();
      if (values.size() <= MAX_IN_VALUES) {
        all = Expressions.and(all, Expressions.in(name, values.toArray()));
      } else {
        Type type = table.schema().findType(name);
        @SuppressWarnings("unchecked")
        Comparator<Object> order = (Comparator<Object>) Comparators.forType(type.asPrimitiveType());
        Object min = values.stream().map(v -> (Object) v).min(order).orElseThrow();
        Object max = values.stream().map(v -> (Object) v).max(order).orElseThrow();
        all =
            Expressions.and(
                all,
                Expressions.and(
                    Expressions.greaterThanOrEqual(name, min),
                    Expressions.lessThanOrEqual(name, max)));
      }
    }
    return all;
  }
}
