package dev.floe.catalog.spec;

import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * One top-level column of a table spec.
 *
 * @param name the column name, matched case-sensitively against the table's columns
 * @param type the Iceberg type (see {@link ColumnTypes} for the spellings a spec accepts)
 * @param required whether the column rejects nulls
 * @param doc the column comment, when the spec sets one
 */
public record ColumnSpec(
    String name, Type.PrimitiveType type, boolean required, Optional<String> doc) {

  public ColumnSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(doc, "doc");
  }

  /** This column as an Iceberg field with the given id. */
  Types.NestedField toField(int id) {
    return Types.NestedField.of(id, !required, name, type, doc.orElse(null));
  }
}
