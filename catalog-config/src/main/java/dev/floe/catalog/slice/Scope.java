package dev.floe.catalog.slice;

import java.io.Serializable;
import java.util.Optional;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * The part of a target table one run owns: one {@link Slice}, or the whole table (a swap, or a
 * merge without a slice). The commit filter, the no-op check and conflict detection all work on the
 * scope, so every write mode shares them.
 *
 * @param slice the slice, or null for the whole table
 */
public record Scope(Slice slice) implements Serializable {

  /** How lineage names the whole-table scope; no slice label can look like it. */
  public static final String WHOLE_TABLE_LABEL = "*";

  public static Scope of(Slice slice) {
    return new Scope(java.util.Objects.requireNonNull(slice, "slice"));
  }

  public static Scope wholeTable() {
    return new Scope(null);
  }

  public boolean isWholeTable() {
    return slice == null;
  }

  public Optional<Slice> optionalSlice() {
    return Optional.ofNullable(slice);
  }

  /** The rows the scope covers, as an Iceberg filter. */
  public Expression toExpression() {
    return slice == null ? Expressions.alwaysTrue() : slice.toExpression();
  }

  /** The scope as recorded in lineage: the slice label, or {@value #WHOLE_TABLE_LABEL}. */
  public String label() {
    return slice == null ? WHOLE_TABLE_LABEL : slice.label();
  }

  /** The value as the user gave it: the {@code --slice} value, or "whole table". */
  public String value() {
    return slice == null ? "whole table" : slice.value();
  }

  /**
   * The scope a lineage label names ({@link #label()}'s inverse), read against the table's schema.
   * Empty when a slice label cannot be read (see {@link Slice#fromLabel}).
   */
  public static Optional<Scope> fromLabel(String label, org.apache.iceberg.Schema schema) {
    if (WHOLE_TABLE_LABEL.equals(label)) {
      return Optional.of(wholeTable());
    }
    return Slice.fromLabel(label, schema).map(Scope::of);
  }

  @Override
  public String toString() {
    return label();
  }
}
