package dev.floe.catalog.lint;

import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.ColumnSpec;
import dev.floe.catalog.spec.PartitionFieldSpec;
import dev.floe.catalog.spec.TableSpec;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.types.Type;

/**
 * How a slice column relates to a table spec's partitioning, decided from the spec alone as {@code
 * SliceResolver} decides it from the table: the column must be a partition source, of a date or
 * timestamp type, under a transform that cuts time (hour, day, month, year, or identity on a date).
 *
 * @param problem what is wrong, or {@link Problem#NONE}
 * @param unit the finest partition unit on the column, when there is no problem
 * @param field the partition field at fault for {@link Problem#NOT_TEMPORAL_TRANSFORM}
 */
record SliceTarget(Problem problem, SliceUnit unit, PartitionFieldSpec field) {

  enum Problem {
    NONE,
    NO_SUCH_COLUMN,
    NOT_PARTITION_SOURCE,
    NOT_TEMPORAL_TYPE,
    NOT_TEMPORAL_TRANSFORM
  }

  static SliceTarget of(TableSpec spec, String column) {
    Optional<ColumnSpec> found = spec.column(column);
    if (found.isEmpty()) {
      return new SliceTarget(Problem.NO_SUCH_COLUMN, null, null);
    }
    List<PartitionFieldSpec> fields =
        spec.partitioning().stream().filter(f -> f.sourceColumn().equals(column)).toList();
    if (fields.isEmpty()) {
      return new SliceTarget(Problem.NOT_PARTITION_SOURCE, null, null);
    }
    Type.TypeID type = found.get().type().typeId();
    if (type != Type.TypeID.DATE && type != Type.TypeID.TIMESTAMP) {
      return new SliceTarget(Problem.NOT_TEMPORAL_TYPE, null, null);
    }
    SliceUnit finest = null;
    for (PartitionFieldSpec field : fields) {
      SliceUnit unit = SliceUnit.ofPartitionField(field.transform().specName(), found.get().type());
      if (unit == null) {
        return new SliceTarget(Problem.NOT_TEMPORAL_TRANSFORM, null, field);
      }
      finest = finest == null || unit.compareTo(finest) < 0 ? unit : finest;
    }
    return new SliceTarget(Problem.NONE, finest, null);
  }
}
