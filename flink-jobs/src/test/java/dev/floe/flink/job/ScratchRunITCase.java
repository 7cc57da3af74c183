package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.DropScratchPlan;
import dev.floe.flink.cli.CliRun;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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
 * A scratch run on a Flink MiniCluster: it commits to scratch-<run-id>, never to main, reports the
 * slice's content as read back from the branch, and its drop leaves the table as it was.
 */
class ScratchRunITCase {
  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables seed;

  @BeforeEach
  void seedTheExample() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
  }

  @Test
  void aRunIdenticalToMainStillCommitsToItsBranchAndTheDropRestoresEverything() {
    SliceJob.run(request());
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    ContentHash main = TableContent.hash(before, ExampleTables.day("2026-10-03"));
    Set<Path> files = warehouseFiles();

    ScratchResult scratch = ScratchRun.run(request());

    Table during = fact();
    assertThat(scratch.onBranch()).isTrue();
    assertThat(scratch.branch()).isEqualTo("scratch-" + scratch.run().runId());
    assertThat(during.refs().get(scratch.branch()).snapshotId()).isEqualTo(scratch.snapshotId());
    assertThat(during.currentSnapshot().snapshotId())
        .isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(scratch.content()).isEqualTo(main);
    assertThat(scratch.rows()).isEqualTo(2);
    assertThat(scratch.snapshotId()).isNotEqualTo(before.currentSnapshot().snapshotId());

    Optional<DropScratchPlan> dropped = ScratchRun.drop(config, scratch);

    Table after = fact();
    assertThat(dropped).isPresent();
    assertThat(dropped.get().deleted()).isNotEmpty();
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(snapshotIds(after)).containsExactlyElementsOf(snapshots);
    assertThat(warehouseFiles()).isEqualTo(files);
  }

  @Test
  void theScratchContentIsTheSliceAsTheRunLeftItNotMains() throws Exception {
    ScratchResult scratch = ScratchRun.run(request());

    assertThat(fact().currentSnapshot()).isNull(); // main never saw it
    assertThat(scratch.content())
        .isEqualTo(
            TableContent.hash(fact(), scratch.snapshotId(), ExampleTables.day("2026-10-03")));
    assertThat(scratch.rows()).isEqualTo(2);
    ScratchRun.drop(config, scratch);
    assertThat(fact().refs()).isEmpty();
    assertThat(fact().snapshots()).isEmpty();
  }

  @Test
  void floeDiscardDropsAScratchBranchAKilledVerifyLeftWithItsFilesAndItsDryRunChangesNothing() {
    SliceJob.run(request());
    Table before = fact();
    List<Long> snapshots = snapshotIds(before);
    Set<Path> files = warehouseFiles();
    // A verify killed between its scratch commit and the drop leaves exactly this.
    ScratchResult left = ScratchRun.run(request());
    Set<Path> withScratch = warehouseFiles();
    String runId = left.run().runId();

    CliRun dry = CliRun.floe(home, "discard", "sales.fact_orders", "--run", runId, "--dry-run");
    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("would drop scratch branch " + left.branch(), "would delete");
    assertThat(fact().refs()).containsKey(left.branch());
    assertThat(warehouseFiles()).isEqualTo(withScratch);

    CliRun discard = CliRun.floe(home, "discard", "sales.fact_orders", "--run", runId, "--json");
    CliRun again = CliRun.floe(home, "discard", "sales.fact_orders", "--run", runId);

    assertThat(discard.exitCode()).as(discard.err()).isZero();
    assertThat(discard.out()).contains("\"role\" : \"scratch\"", "\"deleted_files\"");
    Table after = fact();
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(snapshotIds(after)).containsExactlyElementsOf(snapshots);
    assertThat(warehouseFiles()).isEqualTo(files);
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out())
        .contains("branch " + left.branch() + " of sales.fact_orders is gone already");
  }

  @Test
  void aFailedScratchRunLeavesNoBranchAndADryRunIsRefused() {
    Set<Path> files = warehouseFiles();

    assertThatThrownBy(
            () -> ScratchRun.run(request().withOptions(o -> o.failAt(FailurePoint.BEFORE_COMMIT))))
        .hasMessageContaining("Injected failure");
    RunRequest dryRun =
        RunRequest.of(
            config,
            ExampleTables.job(ExampleTables.FACT_JOB),
            "2026-10-03",
            RunOptions.builder().maxConflictRetries(0).dryRun(true).build());
    assertThatThrownBy(() -> ScratchRun.run(dryRun))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("as a dry run");

    assertThat(fact().refs()).isEmpty();
    assertThat(warehouseFiles()).isEqualTo(files);
  }

  private RunRequest request() {
    return RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), "2026-10-03");
  }

  private Table fact() {
    return seed.table("sales.fact_orders");
  }

  private static List<Long> snapshotIds(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::snapshotId)
        .toList();
  }

  /** The fact table's data and metadata files, but the metadata.json versions commits add. */
  private Set<Path> warehouseFiles() {
    try (Stream<Path> walk = Files.walk(home.resolve("warehouse/sales/fact_orders"))) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".metadata.json"))
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
