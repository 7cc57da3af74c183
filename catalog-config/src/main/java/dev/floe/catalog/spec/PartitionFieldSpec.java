package dev.floe.catalog.spec;

import java.util.Objects;
import java.util.OptionalInt;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;
import org.apache.iceberg.types.Type;

/**
 * One partition field of a table spec: {@code order_date}, {@code day(order_ts)}, {@code bucket(16,
 * id)} or {@code truncate(4, name)}.
 *
 * @param transform how the source column's value becomes the partition value
 * @param sourceColumn the column the partition value is derived from
 * @param parameter the bucket count or truncate width; empty for the other transforms
 */
public record PartitionFieldSpec(
    PartitionTransform transform, String sourceColumn, OptionalInt parameter) {

  public PartitionFieldSpec {
    Objects.requireNonNull(transform, "transform");
    Objects.requireNonNull(sourceColumn, "sourceColumn");
    Objects.requireNonNull(parameter, "parameter");
    if (transform.takesParameter() != parameter.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot create partition field " + transform.specName() + ": parameter " + parameter);
    }
  }

  public static PartitionFieldSpec of(PartitionTransform transform, String sourceColumn) {
    return new PartitionFieldSpec(transform, sourceColumn, OptionalInt.empty());
  }

  public static PartitionFieldSpec of(
      PartitionTransform transform, String sourceColumn, int parameter) {
    return new PartitionFieldSpec(transform, sourceColumn, OptionalInt.of(parameter));
  }

  /**
   * The spec spelling, also used to compare a spec with a table's current partitioning: two fields
   * are the same field exactly when they describe the same.
   */
  public String describe() {
    return describe(transform, sourceColumn, parameter);
  }

  static String describe(PartitionTransform transform, String column, OptionalInt parameter) {
    if (transform == PartitionTransform.IDENTITY) {
      return column;
    }
    if (parameter.isPresent()) {
      return transform.specName() + "(" + parameter.getAsInt() + ", " + column + ")";
    }
    return transform.specName() + "(" + column + ")";
  }

  /** Whether this transform can partition a column of {@code type}, as Iceberg decides it. */
  public boolean appliesTo(Type type) {
    return transform.toIceberg(parameter.orElse(1)).canTransform(type);
  }

  /** The unbound term for {@code UpdatePartitionSpec.addField}. */
  Term term() {
    return switch (transform) {
      case IDENTITY -> Expressions.ref(sourceColumn);
      case YEAR -> Expressions.year(sourceColumn);
      case MONTH -> Expressions.month(sourceColumn);
      case DAY -> Expressions.day(sourceColumn);
      case HOUR -> Expressions.hour(sourceColumn);
      case BUCKET -> Expressions.bucket(sourceColumn, parameter.getAsInt());
      case TRUNCATE -> Expressions.truncate(sourceColumn, parameter.getAsInt());
    };
  }

  void addTo(PartitionSpec.Builder builder) {
    switch (transform) {
      case IDENTITY -> builder.identity(sourceColumn);
      case YEAR -> builder.year(sourceColumn);
      case MONTH -> builder.month(sourceColumn);
      case DAY -> builder.day(sourceColumn);
      case HOUR -> builder.hour(sourceColumn);
      case BUCKET -> builder.bucket(sourceColumn, parameter.getAsInt());
      case TRUNCATE -> builder.truncate(sourceColumn, parameter.getAsInt());
    }
  }
}
