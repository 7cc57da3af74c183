package dev.floe.catalog.spec;

import java.util.List;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;

/**
 * A table's current partition fields in spec spelling, so they compare with a spec's by text. Void
 * fields (what v1 tables keep of a removed field) are left out: they partition nothing.
 */
final class TablePartitioning {

  private TablePartitioning() {}

  static List<PartitionField> activeFields(PartitionSpec spec) {
    return spec.fields().stream().filter(field -> !field.transform().isVoid()).toList();
  }

  static List<String> describe(PartitionSpec spec) {
    return activeFields(spec).stream().map(field -> describe(field, spec)).toList();
  }

  static String describe(PartitionField field, PartitionSpec spec) {
    String column = spec.schema().findColumnName(field.sourceId());
    if (column == null) {
      column = "<dropped column " + field.sourceId() + ">";
    }
    // Iceberg spells transforms "identity", "day", "bucket[16]", "truncate[4]".
    String transform = field.transform().toString();
    if (transform.equals("identity")) {
      return column;
    }
    int bracket = transform.indexOf('[');
    if (bracket > 0 && transform.endsWith("]")) {
      String parameter = transform.substring(bracket + 1, transform.length() - 1);
      return transform.substring(0, bracket) + "(" + parameter + ", " + column + ")";
    }
    return transform + "(" + column + ")";
  }
}
