package dev.floe.flink.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Rows returned by SELECT, SHOW, DESCRIBE or EXPLAIN.
 *
 * @param columnNames as Flink names them (an unaliased aggregate is {@code EXPR$0})
 * @param columnTypes Flink's SQL type of each column, e.g. {@code DECIMAL(38, 2)}, {@code BIGINT
 *     NOT NULL}
 * @param rows Flink's Java values: {@code BigDecimal} (with its scale), {@code LocalDate}, {@code
 *     LocalDateTime} for TIMESTAMP, {@code Instant} for TIMESTAMP_LTZ, {@code byte[]}, boxed
 *     numbers, {@code String}, {@code Boolean}; {@code null} for SQL NULL
 */
public record QueryResult(
    SqlStatement statement,
    List<String> columnNames,
    List<String> columnTypes,
    List<List<Object>> rows)
    implements StatementResult {

  public QueryResult {
    columnNames = List.copyOf(columnNames);
    columnTypes = List.copyOf(columnTypes);
    // List.copyOf rejects nulls, and SQL NULL is a null value.
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  public int rowCount() {
    return rows.size();
  }
}
