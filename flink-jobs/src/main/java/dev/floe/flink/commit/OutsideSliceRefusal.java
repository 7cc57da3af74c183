package dev.floe.flink.commit;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.Slice;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.MetricsModes;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.expressions.Projections.ProjectionEvaluator;
import org.apache.iceberg.types.Types;

/**
 * Iceberg's refusal of an overwrite's new file as not inside the slice ({@code
 * validateAddedFilesMatchOverwriteFilter}: "Cannot append file with rows that do not match
 * filter"), told in Floe's words when the run holds evidence of the cause. Every row was guarded to
 * lie inside the slice, so Iceberg refused a file it could not prove inside: it accepts a file
 * whose partition proves it (strict projection of the slice) or whose min/max of the column do.
 * Without such evidence Iceberg's own message stands.
 */
final class OutsideSliceRefusal {
  private static final String REFUSAL = "Cannot append file with rows that do not match filter";

  private OutsideSliceRefusal() {}

  /**
   * Throws an {@link InvalidInputException} (exit 2) naming the cause when the evidence shows one,
   * else returns.
   *
   * @param table the target, as refreshed for the commit
   * @param slice the run's slice
   * @param subject the slice and table, for the message
   * @param files the run's new files
   * @param refusal what Iceberg threw
   */
  static void explain(
      Table table, Slice slice, String subject, List<DataFile> files, ValidationException refusal) {
    String message = String.valueOf(refusal.getMessage());
    if (!message.startsWith(REFUSAL)) {
      return;
    }
    refuseTheRowIcebergMisplaces(table, slice, subject, files, message);
    refuseTheFileWithoutProof(table, slice, subject, files, message);
  }

  /**
   * When a new file sits in the partition Iceberg 1.11 computes for the slice's instant 0.999999 s
   * past its start, outside the slice ({@link Slice#icebergMisplacedFirstInstant}), a row at that
   * instant is why.
   */
  private static void refuseTheRowIcebergMisplaces(
      Table table, Slice slice, String subject, List<DataFile> files, String message) {
    PartitionSpec spec = table.spec();
    Map<Integer, Object> misplaced = slice.icebergMisplacedFirstInstant(spec);
    for (DataFile file : files) {
      if (file.specId() != spec.specId()) {
        continue;
      }
      for (Map.Entry<Integer, Object> field : misplaced.entrySet()) {
        if (Objects.equals(file.partition().get(field.getKey(), Object.class), field.getValue())) {
          String name = spec.fields().get(field.getKey()).name();
          throw new InvalidInputException(
              String.format(
                  "Cannot commit %s: Iceberg 1.11 files a %s of %s (0.999999 s past the start of"
                      + " the slice, before 1970) under the %s value before the slice's first,"
                      + " so it refuses the commit; nothing was committed. A table partitioned by"
                      + " that field cannot hold a row at that instant in this slice (Iceberg:"
                      + " %s)",
                  subject, slice.column(), slice.firstMisplaceableInstant(), name, message));
        }
      }
    }
  }

  /**
   * When the file Iceberg names lies in a partition of the slice that does not prove it inside and
   * has no min/max of the slice column, their absence is why: Iceberg's strict projection of a time
   * transform is one unit short at a slice's start on or before the partition's second unit after
   * the epoch, so only min/max prove a file of such a slice's first partition.
   */
  private static void refuseTheFileWithoutProof(
      Table table, Slice slice, String subject, List<DataFile> files, String message) {
    DataFile file =
        files.stream().filter(f -> message.endsWith(": " + f.location())).findFirst().orElse(null);
    Types.NestedField column = table.schema().findField(slice.column());
    if (file == null
        || column == null
        || table.schema().asStruct().field(column.fieldId()) == null // nested: Iceberg ignores
        || hasBound(file.lowerBounds(), column.fieldId())
        || hasBound(file.upperBounds(), column.fieldId())) {
      return;
    }
    PartitionSpec spec = table.specs().get(file.specId());
    if (spec == null
        || !holds(Projections.inclusive(spec), spec, slice, file) // a partition outside the slice
        || holds(Projections.strict(spec), spec, slice, file)) {
      return;
    }
    MetricsModes.MetricsMode mode = MetricsConfig.forTable(table).columnMode(slice.column());
    String cause;
    if (file.format() == FileFormat.AVRO) {
      cause =
          "Iceberg 1.11 writes no min/max into avro data files; write the table as parquet or orc"
              + " (write.format.default)";
    } else if (mode instanceof MetricsModes.None || mode instanceof MetricsModes.Counts) {
      cause =
          String.format(
              "the table keeps no min/max of %s (metrics mode %s%s); set the table property"
                  + " write.metadata.metrics.column.%s to full",
              slice.column(), mode, modeSource(table, slice.column()), slice.column());
    } else {
      cause = "the file carries no min/max of " + slice.column();
    }
    throw new InvalidInputException(
        String.format(
            "Cannot commit %s: Iceberg accepts a new file only where its partition or its min/max"
                + " of %s prove it inside the slice, and neither does for the file of partition %s"
                + " (%s): %s; nothing was committed",
            subject,
            slice.column(),
            PartitionPaths.of(spec, file.partition()),
            file.format().name().toLowerCase(Locale.ROOT),
            cause));
  }

  private static boolean holds(
      ProjectionEvaluator projection, PartitionSpec spec, Slice slice, DataFile file) {
    return new Evaluator(spec.partitionType(), projection.project(slice.toExpression()))
        .eval(file.partition());
  }

  /** Where a metrics mode of none or counts came from, when the user did not set it. */
  private static String modeSource(Table table, String column) {
    Map<String, String> properties = table.properties();
    if (properties.containsKey(TableProperties.METRICS_MODE_COLUMN_CONF_PREFIX + column)
        || properties.containsKey(TableProperties.DEFAULT_WRITE_METRICS_MODE)) {
      return "";
    }
    return ", Iceberg's default past the table's first "
        + properties.getOrDefault(
            TableProperties.METRICS_MAX_INFERRED_COLUMN_DEFAULTS,
            String.valueOf(TableProperties.METRICS_MAX_INFERRED_COLUMN_DEFAULTS_DEFAULT))
        + " columns";
  }

  private static boolean hasBound(Map<Integer, ByteBuffer> bounds, int fieldId) {
    return bounds != null && bounds.get(fieldId) != null;
  }
}
