package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;

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
 * <p>The rule is decided on partitions, not on the older files' column bounds as {@link
 * SliceResolver} does: where those bounds leave the finer slice out, the plan still names the
 * coarser one, which is accepted too.
 */
public final class AcceptedSlices {
  private final Schema schema;
  private final List<Slice> olderPartitions;

  private AcceptedSlices(Schema schema, List<Slice> olderPartitions) {
    this.schema = schema;
    this.olderPartitions = olderPartitions;
  }

  /**
   * Reads the partitions of the live data files of older specs (the manifests of the current
   * snapshot whose spec is not the table's; a table that never changed its spec reads none).
   */
  public static AcceptedSlices of(Table table) {
    Snapshot current = table.currentSnapshot();
    Set<Slice> older = new LinkedHashSet<>();
    if (current != null) {
      for (ManifestFile manifest : current.dataManifests(table.io())) {
        if (manifest.partitionSpecId() == table.spec().specId()
            || !(manifest.hasAddedFiles() || manifest.hasExistingFiles())) {
          continue;
        }
        PartitionSpec spec = table.specs().get(manifest.partitionSpecId());
        try (ManifestReader<DataFile> files =
            ManifestFiles.read(manifest, table.io(), table.specs())) {
          for (DataFile file : files) {
            TimeSlices.of(table.schema(), spec, file.partition()).ifPresent(older::add);
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
        }
      }
    }
    return new AcceptedSlices(table.schema(), List.copyOf(older));
  }

  /** The slice to name for {@code partition} of {@code spec}, or empty as {@link TimeSlices#of}. */
  public Optional<Slice> of(PartitionSpec spec, StructLike partition) {
    Optional<Slice> own = TimeSlices.of(schema, spec, partition);
    if (own.isEmpty() || olderPartitions.isEmpty()) {
      return own;
    }
    Slice slice = own.get();
    boolean widened = true;
    while (widened) {
      widened = false;
      for (Slice older : olderPartitions) {
        if (!slice.unit().alignsWith(older.unit()) && older.covers(slice)) {
          slice = older;
          widened = true;
          break;
        }
      }
    }
    return Optional.of(slice);
  }
}
