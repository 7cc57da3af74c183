package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Manifest rewrite: fewer manifests, the same rows and files, and a dry run that writes nothing.
 */
class ManifestRewriteTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  /** Six appends, two per day for three days: six one-file manifests. */
  @BeforeEach
  void sixAppends() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    for (int i = 0; i < 6; i++) {
      TableRows.append(table, row(i, "2026-10-0" + (1 + i % 3)));
    }
  }

  @Test
  void sixSmallManifestsBecomeOneWithTheSameRowsAndFiles() {
    ContentHash content = TableContent.hash(table);
    long head = table.currentSnapshot().snapshotId();
    Set<Path> dataFiles = TableFiles.dataFiles(table, head);

    MaintenanceReport report = ManifestRewrite.of(table, "s.t").run(false);
    table.refresh();

    ManifestRewritePlan plan = (ManifestRewritePlan) report.outcome();
    assertThat(plan.dataManifestsBefore()).isEqualTo(6);
    assertThat(plan.partitions()).isEqualTo(3);
    assertThat(plan.dataFiles()).isEqualTo(6);
    assertThat(plan.predictedDataManifests()).isEqualTo(1);
    assertThat(plan.dataManifestsAfter()).isEqualTo(1);
    assertThat(dataManifests()).isEqualTo(1);
    assertThat(report.before().manifests()).isEqualTo(6);
    assertThat(report.after().manifests()).isEqualTo(1);
    assertThat(report.after().snapshots()).isEqualTo(report.before().snapshots() + 1);
    assertThat(TableContent.hash(table)).isEqualTo(content);
    assertThat(TableFiles.dataFiles(table, table.currentSnapshot().snapshotId()))
        .isEqualTo(dataFiles);
  }

  @Test
  void aDryRunPredictsAndWritesNothing() {
    String metadata = metadataLocation();
    Set<Path> onDisk = TableFiles.onDisk(table);

    MaintenanceReport report = ManifestRewrite.of(table, "s.t").run(true);
    table.refresh();

    assertThat(metadataLocation()).isEqualTo(metadata);
    assertThat(TableFiles.onDisk(table)).isEqualTo(onDisk);
    assertThat(report.after().manifests()).isEqualTo(1);
    assertThat(report.after().snapshots()).isEqualTo(report.before().snapshots() + 1);
    assertThat(report.after().metadataFiles()).isEqualTo(report.before().metadataFiles() + 2);
    assertThat(report.estimated()).contains("metadataBytes");
    assertThat(report.outcome().lines())
        .containsExactly(
            "would rewrite 6 data manifests (6 data files in 3 partitions) clustered by partition"
                + " into about 1 (target 8.0 MiB each); 0 delete manifests kept");
  }

  @Test
  void aTinyTargetClustersOnePartitionPerManifest() {
    table.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, "1").commit();
    table.refresh();

    ManifestRewritePlan plan = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();

    // Every manifest holds files of one partition only.
    for (ManifestFile manifest : table.currentSnapshot().dataManifests(table.io())) {
      assertThat(manifest.partitions().get(0).lowerBound())
          .isEqualTo(manifest.partitions().get(0).upperBound());
    }
    assertThat(plan.dataManifestsAfter()).isEqualTo(dataManifests());
    assertThat(plan.predictedDataManifests()).isEqualTo(plan.dataManifestsAfter());
  }

  @Test
  void oneManifestIsLeftAlone() {
    ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    ManifestRewritePlan plan = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();

    assertThat(plan.isNoOp()).isTrue();
    assertThat(plan.changed()).isFalse();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  private long dataManifests() {
    return table.currentSnapshot().allManifests(table.io()).stream()
        .filter(m -> m.content() == ManifestContent.DATA)
        .count();
  }

  private String metadataLocation() {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }
}
