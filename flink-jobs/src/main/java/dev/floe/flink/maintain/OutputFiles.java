package dev.floe.flink.maintain;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.OutputFileFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names a group's output files deterministically: {@code <group>-0-<run id>-<n>.<format>} under the
 * table's location provider. A failed job reports no file names, but the client can recompute them
 * and delete what the job left behind, whatever task or process died.
 */
final class OutputFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OutputFiles.class);

  /**
   * Probe a few files beyond the expected count, a margin: {@link GroupFileWriter} writes at most
   * the expected count.
   */
  private static final int EXTRA_PROBES = 8;

  private OutputFiles() {}

  static FileFormat format(Table table) {
    return FileFormat.fromString(
        table
            .properties()
            .getOrDefault(
                TableProperties.DEFAULT_FILE_FORMAT, TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
  }

  /** A fresh factory: its n-th file has the same location on every call. */
  static OutputFileFactory factory(Table table, RewriteGroup group) {
    return OutputFileFactory.builderFor(table, group.index(), 0)
        .operationId(group.runId())
        .format(format(table))
        .defaultSpec(table.specs().get(group.specId()))
        .build();
  }

  /** The locations the group's writer used or would have used, in order. */
  static List<String> candidates(Table table, RewriteGroup group) {
    OutputFileFactory files = factory(table, group);
    List<String> locations = new ArrayList<>();
    int probes = group.expectedOutputs() * 2 + EXTRA_PROBES;
    for (int i = 0; i < probes; i++) {
      locations.add(
          files
              .newOutputFile(table.specs().get(group.specId()), group.partition())
              .encryptingOutputFile()
              .location());
    }
    return locations;
  }

  /**
   * Deletes whatever output files of these groups exist; they belong to no snapshot. Returns how
   * many it deleted; a failure is logged, never thrown (the original failure matters more).
   */
  static int deleteLeftovers(Table table, List<RewriteGroup> groups) {
    int deleted = 0;
    for (RewriteGroup group : groups) {
      for (String location : candidates(table, group)) {
        try {
          if (table.io().newInputFile(location).exists()) {
            table.io().deleteFile(location);
            deleted++;
          }
        } catch (RuntimeException e) {
          LOG.warn("Cannot delete leftover compaction file {}: {}", location, e.toString());
        }
      }
    }
    return deleted;
  }
}
