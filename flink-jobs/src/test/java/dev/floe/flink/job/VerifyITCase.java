package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
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
 * {@link Verify} on a Flink MiniCluster: two scratch runs of the seed's fact job, compared with
 * each other and with main, and nothing of them left behind.
 */
class VerifyITCase {
  /** The fact job with a random amount: rerun-unsafe on purpose, and allowed to run. */
  static final String RANDOM_JOB =
      ExampleTables.FACT_JOB.replace(
              "SELECT order_id, customer_id, amount, order_date",
              "SELECT order_id, customer_id, CAST(RAND() * 1000 AS DECIMAL(10, 2)) AS amount,"
                  + " order_date")
          + "allow_nondeterministic: true\n";

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedAndLoadTheDay() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
    SliceJob.run(request(ExampleTables.FACT_JOB));
  }

  @Test
  void anOverwriteJobIsReproducibleAndLeavesMainAndTheWarehouseAsTheyWere() {
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    Set<Path> files = warehouseFiles();
    ContentHash main = TableContent.hash(before, ExampleTables.day("2026-10-03"));

    VerifyResult result = Verify.run(request(ExampleTables.FACT_JOB));

    assertThat(result.reproducible()).isTrue();
    assertThat(result.mainMatches()).isTrue();
    assertThat(result.first().content()).isEqualTo(main);
    assertThat(result.second().content()).isEqualTo(main);
    assertThat(result.main()).isEqualTo(main);
    assertThat(result.first().rows()).isEqualTo(2);
    assertThat(result.first().onBranch()).isTrue();
    assertThat(result.first().snapshotId())
        .isNotEqualTo(result.second().snapshotId())
        .isNotEqualTo(before.currentSnapshot().snapshotId());
    assertThat(result.mainSnapshotId()).isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(result.runDifference()).isNull();
    assertThat(result.mainDifference()).isNull();
    assertThat(result.requireReproducible()).isSameAs(result);
    assertNothingLeft(before, snapshots, files);
  }

  @Test
  void aNondeterministicQueryIsNotReproducibleAndNamesTheColumnWithSamples() {
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    Set<Path> files = warehouseFiles();

    VerifyResult result = Verify.run(request(RANDOM_JOB));

    assertThat(result.reproducible()).isFalse();
    assertThat(result.mainMatches()).isFalse();
    assertThat(result.first().rows()).isEqualTo(2);
    assertThat(result.runDifference().columns()).containsExactly("amount");
    assertThat(result.runDifference().onlyLeftRows()).isEqualTo(2);
    assertThat(result.runDifference().onlyRightRows()).isEqualTo(2);
    assertThat(result.runDifference().onlyLeft())
        .hasSize(2)
        .allSatisfy(row -> assertThat(row).containsKeys("order_id", "amount"))
        .extracting(row -> row.get("order_id"))
        .containsExactlyInAnyOrder("1", "2");
    assertThat(result.runDifference().onlyRight()).hasSize(2);
    assertThatThrownBy(result::requireReproducible)
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("two runs of the same slice left different content")
        .hasMessageContaining("columns that differ: amount")
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.CHECK_FAILED));
    assertNothingLeft(before, snapshots, files);
  }

  @Test
  void aSourceChangedAfterTheLoadIsReportedAsMainDiffering() throws Exception {
    seed.sql("INSERT INTO sales.staging_orders VALUES (9, 19, 9.00, DATE '2026-10-03')");
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    Set<Path> files = warehouseFiles();

    VerifyResult result = Verify.run(request(ExampleTables.FACT_JOB));

    assertThat(result.reproducible()).isTrue();
    assertThat(result.mainMatches()).isFalse();
    assertThat(result.main().rows()).isEqualTo(2);
    assertThat(result.first().rows()).isEqualTo(3);
    assertThat(result.mainDifference().onlyLeftRows()).isZero();
    assertThat(result.mainDifference().onlyRightRows()).isEqualTo(1);
    assertThat(result.mainDifference().onlyRight().get(0))
        .containsEntry("order_id", "9")
        .containsEntry("amount", "9.00");
    assertNothingLeft(before, snapshots, files);
  }

  @Test
  void aFailingSecondRunStillDropsTheFirstRunsBranch() {
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    Set<Path> files = warehouseFiles();
    RunRequest request = request(ExampleTables.FACT_JOB);

    assertThatThrownBy(
            () ->
                Verify.run(request, request.withOptions(o -> o.failAt(FailurePoint.BEFORE_COMMIT))))
        .hasMessageContaining("Injected failure before the commit");

    assertNothingLeft(before, snapshots, files);
  }

  private void assertNothingLeft(Table before, List<Long> snapshots, Set<Path> files) {
    Table after = fact();
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(after.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(snapshotIds(after)).containsExactlyElementsOf(snapshots);
    assertThat(warehouseFiles()).isEqualTo(files);
  }

  private RunRequest request(String manifest) {
    return RunRequest.of(config, ExampleTables.job(manifest), "2026-10-03");
  }

  private Table fact() {
    return seed.table("sales.fact_orders");
  }

  private static List<Long> snapshotIds(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .toList();
  }

  /** The fact table's data files, manifests and manifest lists (metadata.json versions aside). */
  private Set<Path> warehouseFiles() {
    try (Stream<Path> walk = Files.walk(home.resolve("warehouse/sales/fact_orders"))) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".metadata.json"))
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
