package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The slice the plan names for a partition, one {@code --slice} of {@code floe maintain} accepts.
 * That is the partition's own time slice ({@link TimeSlices#of}), unless files of an older
 * partition spec still live in a partition of a coarser unit over it on the same column (a table
 * partitioned by month, then by day). A slice of the partition's own unit would not cover whole
 * partitions of that older spec, and {@link SliceResolver} refuses it on every run; the older
 * partition's slice (or, in turn, a still coarser one over that) is named instead, which it
 * accepts. Compaction of that slice rewrites the same partitions of the current spec and keeps the
 * older spec's files, as always.
 *
 * <p>The widening is decided on partitions, not on the older files' column bounds as {@link
 * SliceResolver} does: where those bounds leave the finer slice out, the plan still names the
 * coarser one, which is accepted too. Where an older spec with live files has no time partition on
 * the slice's column (unpartitioned, or by another column), no slice is sure to be accepted: {@link
 * #refusal} then asks {@link SliceResolver} itself.
 */
public final class AcceptedSlices {
  private final Schema schema;
  // column -> unit -> start -> the older partition's slice
  private final Map<String, Map<SliceUnit, Map<LocalDateTime, Slice>>> olderPartitions;
  private final List<PartitionSpec> olderSpecs;

  private AcceptedSlices(
      Schema schema,
      Map<String, Map<SliceUnit, Map<LocalDateTime, Slice>>> olderPartitions,
      List<PartitionSpec> olderSpecs) {
    this.schema = schema;
    this.olderPartitions = olderPartitions;
    this.olderSpecs = olderSpecs;
  }

  /**
   * Reads the partitions of the live data files of older specs (the manifests of the current
   * snapshot whose spec is not the table's; a table that never changed its spec reads none).
   */
  public static AcceptedSlices of(Table table) {
    Snapshot current = table.currentSnapshot();
    Map<String, Map<SliceUnit, Map<LocalDateTime, Slice>>> older = new HashMap<>();
    List<PartitionSpec> specs = new ArrayList<>();
    if (current != null) {
      for (ManifestFile manifest : current.dataManifests(table.io())) {
        if (manifest.partitionSpecId() == table.spec().specId()
            || !(manifest.hasAddedFiles() || manifest.hasExistingFiles())) {
          continue;
        }
        PartitionSpec spec = table.specs().get(manifest.partitionSpecId());
        if (!specs.contains(spec)) {
          specs.add(spec);
        }
        try (ManifestReader<DataFile> files =
            ManifestFiles.read(manifest, table.io(), table.specs())) {
          for (DataFile file : files) {
            TimeSlices.of(table.schema(), spec, file.partition())
                .ifPresent(
                    slice ->
                        older
                            .computeIfAbsent(slice.column(), c -> new HashMap<>())
                            .computeIfAbsent(slice.unit(), u -> new HashMap<>())
                            .put(slice.start(), slice));
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
        }
      }
    }
    return new AcceptedSlices(table.schema(), older, List.copyOf(specs));
  }

  /** The slice to name for {@code partition} of {@code spec}, or empty as {@link TimeSlices#of}. */
  public Optional<Slice> of(PartitionSpec spec, StructLike partition) {
    Optional<Slice> own = TimeSlices.of(schema, spec, partition);
    Map<SliceUnit, Map<LocalDateTime, Slice>> byUnit =
        own.isEmpty() ? null : olderPartitions.get(own.get().column());
    if (byUnit == null) {
      return own;
    }
    Slice slice = own.get();
    for (SliceUnit unit : SliceUnit.values()) {
      if (!slice.unit().alignsWith(unit)) {
        Slice over = byUnit.getOrDefault(unit, Map.of()).get(startOf(unit, slice.start()));
        if (over != null) {
          slice = over;
        }
      }
    }
    return Optional.of(slice);
  }

  /**
   * Why {@code --slice} would refuse {@code slice}, or empty when it would not. Asks {@link
   * SliceResolver} (which lists the files of the slice) only when an older spec with live files has
   * no time partition on the slice's column; every other slice {@link #of} names is accepted.
   */
  public Optional<String> refusal(Table table, String name, Slice slice) {
    Types.NestedField field = schema.findField(slice.column());
    boolean unsure = false;
    for (PartitionSpec spec : olderSpecs) {
      unsure |= field == null || timeUnit(spec, field) == null;
    }
    if (!unsure) {
      return Optional.empty();
    }
    try {
      SliceResolver.resolve(name, table, slice.column(), slice.value());
      return Optional.empty();
    } catch (InvalidInputException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static SliceUnit timeUnit(PartitionSpec spec, Types.NestedField field) {
    for (PartitionField partitionField : spec.fields()) {
      if (partitionField.sourceId() == field.fieldId()) {
        SliceUnit unit =
            SliceUnit.ofPartitionField(partitionField.transform().toString(), field.type());
        if (unit != null) {
          return unit;
        }
      }
    }
    return null;
  }

  /** The start of the {@code unit} that holds {@code instant}. */
  private static LocalDateTime startOf(SliceUnit unit, LocalDateTime instant) {
    return switch (unit) {
      case HOUR -> instant.truncatedTo(ChronoUnit.HOURS);
      case DAY -> instant.truncatedTo(ChronoUnit.DAYS);
      case MONTH -> instant.toLocalDate().withDayOfMonth(1).atStartOfDay();
      case YEAR -> instant.toLocalDate().withDayOfYear(1).atStartOfDay();
    };
  }
}
