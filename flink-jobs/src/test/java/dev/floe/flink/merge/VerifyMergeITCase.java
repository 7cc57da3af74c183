package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.job.Verify;
import dev.floe.flink.job.VerifyResult;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code floe verify} of the seed's merge job (no slice: the whole dimension): scratch runs commit
 * only when the merge changes something, a no-op run's result is main's content, and nothing of
 * either run is left.
 */
class VerifyMergeITCase {
  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedTheDimension() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createCustomers();
  }

  @Test
  void aMergeIsReproducibleOnAnEmptyTableAfterItsLoadAndAfterANewerBatch() throws Exception {
    VerifyResult fresh = Verify.run(request());

    assertThat(fresh.reproducible()).isTrue();
    assertThat(fresh.slice()).isEqualTo("*");
    assertThat(fresh.first().onBranch()).isTrue();
    assertThat(fresh.first().rows()).isEqualTo(2); // one row per customer
    assertThat(fresh.main().rows()).isZero();
    assertThat(fresh.mainMatches()).isFalse();
    assertThat(dim().refs()).isEmpty();
    assertThat(dim().snapshots()).isEmpty();

    SliceJob.run(request());
    Table loaded = dim();
    List<Long> snapshots = snapshotIds(loaded);
    Set<Path> files = warehouseFiles();

    VerifyResult unchanged = Verify.run(request());

    assertThat(unchanged.reproducible()).isTrue();
    assertThat(unchanged.mainMatches()).isTrue();
    assertThat(unchanged.first().onBranch()).isFalse(); // the merge had nothing to change
    assertThat(unchanged.first().snapshotId()).isEqualTo(loaded.currentSnapshot().snapshotId());
    assertThat(unchanged.first().content()).isEqualTo(fresh.first().content());
    assertNothingLeft(loaded, snapshots, files);

    seed.stagingCustomers("(11, 'pro', " + ExampleTables.ts("2026-10-04 08:00:00") + ")");
    VerifyResult newer = Verify.run(request());

    assertThat(newer.reproducible()).isTrue();
    assertThat(newer.first().onBranch()).isTrue();
    assertThat(newer.mainMatches()).isFalse();
    assertThat(newer.mainDifference().columns()).containsExactly("tier", "updated_at");
    assertThat(newer.mainDifference().onlyLeft())
        .singleElement()
        .satisfies(
            row ->
                assertThat(row).containsEntry("customer_id", "11").containsEntry("tier", "free"));
    assertThat(newer.mainDifference().onlyRight())
        .singleElement()
        .satisfies(
            row -> assertThat(row).containsEntry("customer_id", "11").containsEntry("tier", "pro"));
    assertNothingLeft(loaded, snapshots, files);
  }

  private void assertNothingLeft(Table before, List<Long> snapshots, Set<Path> files) {
    Table after = dim();
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(after.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(snapshotIds(after)).containsExactlyElementsOf(snapshots);
    assertThat(warehouseFiles()).isEqualTo(files);
  }

  private RunRequest request() {
    return RunRequest.of(config, ExampleTables.job(ExampleTables.MERGE_JOB), null);
  }

  private Table dim() {
    return seed.table("sales.dim_customer");
  }

  private static List<Long> snapshotIds(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .toList();
  }

  private Set<Path> warehouseFiles() {
    try (Stream<Path> walk = Files.walk(home.resolve("warehouse/sales/dim_customer"))) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".metadata.json"))
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
