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
import org.apache.iceberg.expressions.Expressions;
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
    // One manifest holding all three partitions: with a tiny target, three groups to split it into.
    ManifestRewrite.of(table, "s.t").commit();
    table.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, "1").commit();
    table.refresh();

    ManifestRewritePlan plan = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();

    // Every manifest holds files of one partition only.
    for (ManifestFile manifest : table.currentSnapshot().dataManifests(table.io())) {
      assertThat(manifest.partitions().get(0).lowerBound())
          .isEqualTo(manifest.partitions().get(0).upperBound());
    }
    assertThat(plan.changed()).isTrue();
    assertThat(plan.dataManifestsAfter()).isEqualTo(dataManifests()).isGreaterThan(1);
    assertThat(plan.predictedDataManifests()).isEqualTo(plan.dataManifestsAfter());
  }

  @Test
  void aRerunOnTwoPartitionSpecsCommitsNothing() {
    table.updateSpec().removeField("d").addField(Expressions.month("d")).commit();
    for (int i = 0; i < 4; i++) {
      TableRows.append(table, row(10 + i, "2026-1" + (i % 2) + "-01"));
    }
    ManifestRewritePlan first = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    assertThat(first.changed()).isTrue();
    // One manifest per partition spec: a rewrite never mixes specs in a manifest.
    assertThat(first.dataManifestsAfter()).isEqualTo(2);

    assertRerunIsANoOp();
  }

  @Test
  void aRerunWithASmallTargetManifestSizeCommitsNothing() {
    table.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, "8000").commit();
    table.refresh();
    ManifestRewritePlan first = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    assertThat(first.changed()).isTrue();
    assertThat(first.dataManifestsAfter()).isGreaterThan(1).isLessThan(6);
    // The rerun groups with the bytes per entry the rewrite grouped with.
    assertThat(table.currentSnapshot().summary())
        .containsKey(ManifestRewrite.BYTES_PER_ENTRY_PROPERTY);

    assertRerunIsANoOp();
  }

  @Test
  void manySmallManifestsOfOneSpecAreStillRewrittenAfterAnEarlierRewrite() {
    table.updateSpec().removeField("d").addField(Expressions.month("d")).commit();
    TableRows.append(table, row(10, "2026-11-01"));
    ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    // Five more small manifests of the current spec next to the rewritten two.
    for (int i = 0; i < 5; i++) {
      TableRows.append(table, row(20 + i, "2026-1" + (i % 2) + "-01"));
    }
    table.refresh();
    long head = table.currentSnapshot().snapshotId();

    MaintenanceReport dryRun = ManifestRewrite.of(table, "s.t").run(true);
    ManifestRewritePlan plan = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();

    assertThat(((ManifestRewritePlan) dryRun.outcome()).isNoOp()).isFalse();
    assertThat(dryRun.outcome().details()).containsEntry("no_op", false);
    assertThat(plan.alreadyGrouped()).isFalse();
    assertThat(plan.dataManifestsBefore()).isEqualTo(7);
    assertThat(plan.changed()).isTrue();
    assertThat(table.currentSnapshot().snapshotId()).isNotEqualTo(head);
    assertThat(plan.dataManifestsAfter()).isEqualTo(dataManifests()).isEqualTo(2);
  }

  /** A dry run and a real run of the rewrite again: both no-ops, the table untouched. */
  private void assertRerunIsANoOp() {
    long head = table.currentSnapshot().snapshotId();
    String metadata = metadataLocation();
    int manifests = (int) dataManifests();

    MaintenanceReport dryRun = ManifestRewrite.of(table, "s.t").run(true);
    MaintenanceReport rerun = ManifestRewrite.of(table, "s.t").run(false);
    table.refresh();

    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(metadataLocation()).isEqualTo(metadata);
    for (MaintenanceReport report : new MaintenanceReport[] {dryRun, rerun}) {
      ManifestRewritePlan plan = (ManifestRewritePlan) report.outcome();
      assertThat(plan.isNoOp()).isTrue();
      assertThat(plan.alreadyGrouped()).isTrue();
      assertThat(plan.changed()).isFalse();
      assertThat(plan.dataManifestsAfter()).isNull();
      assertThat(plan.details()).containsEntry("no_op", true);
      assertThat(plan.lines())
          .singleElement()
          .asString()
          .startsWith("nothing to rewrite: " + manifests + " data manifests (")
          .contains("already clustered by partition");
      assertThat(report.after()).isEqualTo(report.before());
    }
  }

  @Test
  void aManifestHoldingEntriesOfDeletedFilesIsRewrittenThenTheRerunIsANoOp() {
    ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    // Deleting files leaves their entries, marked deleted, in the one manifest.
    table.newDelete().deleteFromRowFilter(Expressions.equal("d", day("2026-10-01"))).commit();
    table.refresh();
    assertThat(dataManifests()).isEqualTo(1);

    ManifestRewritePlan plan = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();

    assertThat(plan.alreadyGrouped()).isFalse();
    assertThat(plan.changed()).isTrue();
    long head = table.currentSnapshot().snapshotId();
    ManifestRewritePlan rerun = ManifestRewrite.of(table, "s.t").commit();
    table.refresh();
    assertThat(rerun.isNoOp()).isTrue();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
  }

  private static int day(String day) {
    return (int) LocalDate.parse(day).toEpochDay();
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
