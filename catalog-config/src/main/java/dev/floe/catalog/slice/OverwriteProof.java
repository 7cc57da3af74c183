package dev.floe.catalog.slice;

import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.MetricsModes;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/**
 * Whether Iceberg can accept an overwrite of a slice that adds files. Its check that the new files
 * lie inside the slice ({@code validateAddedFilesMatchOverwriteFilter}, which rule 2 requires)
 * accepts a file when its partition proves it ({@link Slice#partitionsProveFiles}) or when its
 * min/max statistics of the slice column do. A table that keeps no such statistics (metrics mode
 * {@code none} or {@code counts}) and whose partitions cannot prove the slice therefore has every
 * overwrite of it that adds a file refused, whatever the rows.
 */
public final class OverwriteProof {

  private OverwriteProof() {}

  /**
   * Why Iceberg would refuse every overwrite of {@code slice} in {@code table} that adds a file, as
   * the message of the run that stops at the slice's first row, or empty when it can accept one.
   *
   * @param target the table's name, for the message
   */
  public static Optional<String> refusal(Table table, Slice slice, String target) {
    MetricsModes.MetricsMode mode = MetricsConfig.forTable(table).columnMode(slice.column());
    if (!(mode instanceof MetricsModes.None || mode instanceof MetricsModes.Counts)) {
      return Optional.empty();
    }
    PartitionSpec spec = table.spec();
    if (slice.partitionsProveFiles(spec)) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "Cannot commit slice %s of %s: Iceberg accepts an overwrite's new files only where the"
                + " partitions or the files' min/max of %s prove them inside the slice; the"
                + " partitions (%s) do not prove this slice, and the table keeps no min/max of %s"
                + " (metrics mode %s); set the table property write.metadata.metrics.column.%s to"
                + " full; nothing was committed",
            slice.label(),
            target,
            slice.column(),
            fields(spec),
            slice.column(),
            mode,
            slice.column()));
  }

  private static String fields(PartitionSpec spec) {
    if (spec.isUnpartitioned()) {
      return "none";
    }
    return spec.fields().stream()
        .map(f -> f.transform() + "(" + spec.schema().findColumnName(f.sourceId()) + ")")
        .collect(Collectors.joining(", "));
  }
}
