package dev.floe.catalog.job;

import java.io.Serializable;
import java.util.List;

/** A data check that gates the commit: when one fails, nothing is committed (exit code 3). */
public sealed interface CheckSpec extends Serializable {

  /** How the check is written in a manifest, e.g. {@code not_null: [order_id, amount]}. */
  String describe();

  /** The columns the check reads. */
  List<String> columns();

  record NotNull(List<String> columns) implements CheckSpec {
    public NotNull {
      columns = List.copyOf(columns);
    }

    @Override
    public String describe() {
      return "not_null: " + columns;
    }
  }

  record Unique(List<String> columns) implements CheckSpec {
    public Unique {
      columns = List.copyOf(columns);
    }

    @Override
    public String describe() {
      return "unique: " + columns;
    }
  }

  /** Bounds on the slice's row count; either may be null. */
  record RowCount(Long min, Long max) implements CheckSpec {
    @Override
    public String describe() {
      return "row_count: {min: " + min + ", max: " + max + "}";
    }

    @Override
    public List<String> columns() {
      return List.of();
    }
  }

  /** Every non-null value of {@code column} is one of {@code values} (compared as its type). */
  record AcceptedValues(String column, List<String> values) implements CheckSpec {
    public AcceptedValues {
      values = List.copyOf(values);
    }

    @Override
    public String describe() {
      return "accepted_values: {column: " + column + ", values: " + values + "}";
    }

    @Override
    public List<String> columns() {
      return List.of(column);
    }
  }
}
