package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A compaction dry run predicts what its commits add: one manifest list, one manifest of new files
 * and a copy of every manifest holding a removed file per slice, and data files smaller by the
 * footers saved. It once copied the "before" manifests, metadata files and bytes (2 -> ~2, 8 -> ~8,
 * 50.6 -> ~50.6 KiB where the run gave 3, 11 and 71.2 KiB) and kept the rewritten bytes.
 */
class CompactionDryRunPredictsTheCommitsMetadataTest {
  /** Metadata bytes: new manifests, lists and the metadata.json growth are estimated. */
  private static final double METADATA_BYTES_TOLERANCE = 0.02;

  /**
   * Data bytes: the Parquet overhead per file is fitted from the rewritten files' rows and bytes
   * (each slice here has files of two row counts or more; with one, the bytes are kept).
   */
  private static final double DATA_BYTES_TOLERANCE = 0.15;

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void oneSliceOfFilesFromSeveralCommits() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 3, 4, 1);
    SmallFiles.append(fact, "2026-10-03", 2, 11, 100);
    SmallFiles.append(fact, "2026-10-04", 2, 7, 200);

    assertDryRunPredictsTheRun(List.of("2026-10-03"));
  }

  @Test
  void twoSlicesSharingAManifestWithADeleteFileThatGoes() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 2, 4, 1);
    SmallFiles.append(fact, "2026-10-03", 1, 10, 50);
    SmallFiles.append(fact, "2026-10-04", 2, 9, 100);
    // One manifest holding both days: each slice's commit writes its own copy of it.
    fact.rewriteManifests().clusterBy(file -> 1).commit();
    SmallFiles.append(fact, "2026-10-04", 2, 17, 200);
    SmallFiles.append(fact, "2026-10-05", 2, 5, 300);
    DataFile deleted = Deletes.dataFiles(fact, "order_date=2026-10-03").get(0);
    Deletes.commit(fact, Deletes.positions(fact, deleted, 0, 1));

    assertDryRunPredictsTheRun(List.of("2026-10-03", "2026-10-04"));
  }

  private void assertDryRunPredictsTheRun(List<String> slices) {
    MaintenanceReport dryRun = action(slices).run(true);
    MaintenanceReport run = action(slices).run(false);

    TableStats predicted = dryRun.after();
    TableStats real = run.after();
    assertThat(dryRun.before()).isEqualTo(run.before());
    assertThat(predicted.snapshots()).isEqualTo(real.snapshots());
    assertThat(predicted.dataFiles()).isEqualTo(real.dataFiles());
    assertThat(predicted.deleteFiles()).isEqualTo(real.deleteFiles());
    assertThat(predicted.manifests()).isEqualTo(real.manifests());
    assertThat(predicted.metadataFiles()).isEqualTo(real.metadataFiles());
    // Files are counted as planned, but a writer or Iceberg may make it one more or fewer.
    // (Delete files only where there are some Iceberg might drop.)
    List<String> estimated =
        run.before().deleteFiles() > 0
            ? List.of("dataFiles", "deleteFiles", "dataBytes", "metadataBytes")
            : List.of("dataFiles", "dataBytes", "metadataBytes");
    assertThat(dryRun.estimated()).containsExactlyInAnyOrderElementsOf(estimated);
    assertThat((double) predicted.metadataBytes())
        .isCloseTo(real.metadataBytes(), within(real.metadataBytes() * METADATA_BYTES_TOLERANCE));
    assertThat((double) predicted.dataBytes())
        .isCloseTo(real.dataBytes(), within(real.dataBytes() * DATA_BYTES_TOLERANCE));
  }

  private CompactionAction action(List<String> slices) {
    return CompactionAction.of(
        catalog.config(),
        SmallFiles.FACT,
        Compaction.of(catalog.config(), SmallFiles.FACT).slices(slices));
  }
}
