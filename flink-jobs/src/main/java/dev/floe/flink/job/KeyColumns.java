package dev.floe.flink.job;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.NestedField;

/**
 * The key and ordering columns of a merge or insert-if-absent, checked against the target before
 * any data is read.
 */
final class KeyColumns {
  /** Types whose values can be matched exactly and pruned by file bounds. */
  private static final Set<Type.TypeID> KEY_TYPES =
      Set.of(
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.STRING,
          Type.TypeID.DATE,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.DECIMAL,
          Type.TypeID.BOOLEAN);

  /** Types with a total order that means "newer". */
  private static final Set<Type.TypeID> ORDERING_TYPES =
      Set.of(
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.DATE,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.DECIMAL,
          Type.TypeID.STRING);

  private KeyColumns() {}

  /** The manifest's key, else the target's identifier fields; refuses anything unusable. */
  static List<String> resolve(JobSpec spec, Table target) {
    List<String> key = new ArrayList<>(spec.key());
    if (key.isEmpty()) {
      key.addAll(target.schema().identifierFieldNames());
    }
    if (key.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot run %s in mode %s: no key; set key: [column, ...] in the job manifest, or key:"
              + " in the table spec of %s",
          spec.source(), spec.mode().text(), spec.target());
    }
    String what = spec.key().isEmpty() ? "key (the table's identifier field)" : "key";
    for (String column : key) {
      NestedField field = field(spec, target, column, what);
      if (!KEY_TYPES.contains(field.type().typeId())) {
        throw InvalidInputException.of(
            "Cannot use %s.%s of type %s as a key in %s: a key column must be one of int, long,"
                + " string, date, timestamp, timestamptz, decimal, boolean",
            spec.target(), column, field.type(), spec.source());
      }
    }
    if (spec.ordering() != null) {
      NestedField field = field(spec, target, spec.ordering(), "ordering");
      if (!ORDERING_TYPES.contains(field.type().typeId())) {
        throw InvalidInputException.of(
            "Cannot order by %s.%s of type %s in %s: the ordering column must be an int, long,"
                + " date, timestamp, timestamptz, decimal or string",
            spec.target(), spec.ordering(), field.type(), spec.source());
      }
      if (key.contains(spec.ordering())) {
        throw InvalidInputException.of(
            "Cannot order by %s in %s: it is part of the key %s, so it cannot tell two versions of"
                + " a row apart",
            spec.ordering(), spec.source(), key);
      }
    }
    return List.copyOf(key);
  }

  private static NestedField field(JobSpec spec, Table target, String column, String what) {
    NestedField field = target.schema().findField(column);
    if (field == null) {
      throw InvalidInputException.of(
          "Cannot read %s at '%s': %s has no column '%s'",
          spec.source(), what, spec.target(), column);
    }
    if (target.schema().asStruct().field(field.fieldId()) == null) {
      // The committer finds key and ordering values by top-level position in the row.
      throw InvalidInputException.of(
          "Cannot use %s.%s as the %s of %s: it is a field of a struct; key and ordering columns"
              + " must be top-level columns",
          spec.target(), column, what, spec.source());
    }
    return field;
  }
}
