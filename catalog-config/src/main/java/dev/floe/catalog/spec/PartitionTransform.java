package dev.floe.catalog.spec;

import java.util.Locale;
import java.util.Optional;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;

/** The partition transforms a table spec can declare, spelled as in the spec. */
public enum PartitionTransform {
  IDENTITY,
  YEAR,
  MONTH,
  DAY,
  HOUR,
  BUCKET,
  TRUNCATE;

  /** The spec spelling, e.g. {@code day}. */
  public String specName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Bucket takes a bucket count and truncate a width; the others take only the column. */
  public boolean takesParameter() {
    return this == BUCKET || this == TRUNCATE;
  }

  public static Optional<PartitionTransform> fromSpecName(String name) {
    for (PartitionTransform transform : values()) {
      if (transform.specName().equals(name)) {
        return Optional.of(transform);
      }
    }
    return Optional.empty();
  }

  /** The Iceberg transform, used to ask Iceberg which column types it accepts. */
  Transform<?, ?> toIceberg(int parameter) {
    return switch (this) {
      case IDENTITY -> Transforms.identity();
      case YEAR -> Transforms.year();
      case MONTH -> Transforms.month();
      case DAY -> Transforms.day();
      case HOUR -> Transforms.hour();
      case BUCKET -> Transforms.bucket(parameter);
      case TRUNCATE -> Transforms.truncate(parameter);
    };
  }
}
