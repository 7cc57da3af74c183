package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backfills end to end on a shared local Flink cluster and the embedded catalog. Correctness is
 * read from the tables: every slice's content must hash like the staging rows of its day, and each
 * slice must carry exactly one commit of the backfill.
 */
class BackfillITCase {
  private static final LocalDate FIRST = LocalDate.parse("2026-01-01");
  private static final int DAYS = 30;

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables tables;

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    tables = new ExampleTables(config).createOrders(FIRST, DAYS, 20);
  }

  @Test
  void anInterruptedBackfillResumesAndLoadsEverySliceExactlyOnce() {
    BackfillRequest request =
        BackfillRequest.builder(
                config,
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-31")
            .failFast(true)
            .build();

    BackfillResult interrupted =
        Backfill.run(request.toBuilder().failAtSlice("2026-01-15").build());

    assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.UNEXPECTED);
    assertThat(interrupted.sample().passed()).isTrue();
    assertThat(statusOf(interrupted, "2026-01-30")).isEqualTo(SliceStatus.COMMITTED); // sample
    assertThat(statusOf(interrupted, "2026-01-14")).isEqualTo(SliceStatus.COMMITTED);
    assertThat(statusOf(interrupted, "2026-01-15")).isEqualTo(SliceStatus.FAILED);
    assertThat(statusOf(interrupted, "2026-01-16")).isEqualTo(SliceStatus.NOT_RUN);
    assertThat(interrupted.count(SliceStatus.COMMITTED)).isEqualTo(15);
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-15")).rows())
        .isZero();
    String id = interrupted.plan().backfillId();
    Snapshot headAfterInterruption = tables.table(ExampleTables.FACT_ORDERS).currentSnapshot();

    BackfillResult resumed = Backfill.run(request);

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(resumed.plan().backfillId()).isEqualTo(id);
    assertThat(resumed.count(SliceStatus.SKIPPED)).isEqualTo(15);
    assertThat(resumed.count(SliceStatus.COMMITTED)).isEqualTo(15);
    assertThat(statusOf(resumed, "2026-01-01")).isEqualTo(SliceStatus.SKIPPED);
    assertThat(statusOf(resumed, "2026-01-15")).isEqualTo(SliceStatus.COMMITTED);
    assertThat(statusOf(resumed, "2026-01-29")).isEqualTo(SliceStatus.COMMITTED);
    // Every slice holds exactly its day of staging rows, loaded by exactly one commit.
    for (int d = 0; d < DAYS; d++) {
      LocalDate day = FIRST.plusDays(d);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
    }
    Map<String, Integer> commits = tables.backfillCommitsBySlice(id);
    assertThat(commits).hasSize(DAYS);
    assertThat(commits.values()).containsOnly(1);
    // The resumed run added exactly the 15 missing commits on top of the interrupted one.
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    assertThat(
            org.apache.iceberg.util.SnapshotUtil.ancestorIds(
                    target.currentSnapshot(), target::snapshot)
                .size())
        .isEqualTo(30);
    assertThat(target.snapshot(headAfterInterruption.snapshotId())).isNotNull();

    BackfillResult again = Backfill.run(request);

    assertThat(again.count(SliceStatus.SKIPPED)).isEqualTo(DAYS);
    assertThat(tables.table(ExampleTables.FACT_ORDERS).currentSnapshot().snapshotId())
        .isEqualTo(target.currentSnapshot().snapshotId());
  }

  @Test
  void withoutFailFastAFailedSliceIsReportedAndTheOthersStillLoad() {
    BackfillRequest request =
        BackfillRequest.builder(
                config,
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-07")
            .maxConcurrency(3)
            .failAtSlice("2026-01-02")
            .build();

    BackfillResult result = Backfill.run(request);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.UNEXPECTED);
    assertThat(statusOf(result, "2026-01-02")).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(result, "2026-01-02").error())
        .contains("Injected failure before the commit");
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(5);
    for (String day :
        List.of("2026-01-01", "2026-01-03", "2026-01-04", "2026-01-05", "2026-01-06")) {
      LocalDate date = LocalDate.parse(day);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, date))
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, date));
    }
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-02")).rows())
        .isZero();
  }

  @Test
  void aFailingSampleStopsEverythingAndCommitsNothing() {
    BackfillRequest request =
        BackfillRequest.builder(
                config,
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-11")
            .sample("2026-01-05")
            .failAtSlice("2026-01-05")
            .build();

    BackfillResult result = Backfill.run(request);

    assertThat(result.sample().passed()).isFalse();
    assertThat(result.sample().detail()).contains("the sample slice failed");
    assertThat(result.exitCode()).isEqualTo(ExitCodes.UNEXPECTED);
    assertThat(result.count(SliceStatus.NOT_RUN)).isEqualTo(9);
    assertThat(tables.table(ExampleTables.FACT_ORDERS).currentSnapshot()).isNull();
  }

  @Test
  void aSampleThatDoesNotReproduceStopsTheBackfillWithExitCode3() {
    String random =
        ExampleTables.BACKFILL_JOB
            .replace(
                "SELECT order_id, customer_id, amount,",
                "SELECT order_id, CAST(RAND() * 1000 AS BIGINT) AS customer_id, amount,")
            .replace("mode: overwrite", "mode: overwrite\nallow_nondeterministic: true");
    BackfillRequest request =
        BackfillRequest.of(config, ExampleTables.backfillJob(random), "2026-01-01", "2026-01-06");

    BackfillResult result = Backfill.run(request);

    assertThat(result.sample().passed()).isFalse();
    assertThat(result.sample().detail()).contains("NOT reproducible");
    assertThat(result.sample().mainHash()).isNotEqualTo(result.sample().secondHash());
    assertThat(result.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(result.count(SliceStatus.NOT_RUN)).isEqualTo(4);
    // The scratch branch of the second run is gone; main holds the sample's one commit.
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    assertThat(target.refs().keySet()).containsExactly("main");
    assertThat(target.snapshots()).hasSize(1);
  }

  @Test
  void theSampleOnlyRunValidatesOnePartitionAndLaunchesNothingElse() {
    BackfillResult result =
        Backfill.run(
            BackfillRequest.builder(
                    config,
                    ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                    "2026-01-01",
                    "2026-01-11")
                .sampleOnly(true)
                .build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.sample().passed()).isTrue();
    assertThat(result.sample().mainHash()).isEqualTo(result.sample().secondHash());
    assertThat(statusOf(result, "2026-01-10")).isEqualTo(SliceStatus.COMMITTED);
    assertThat(result.count(SliceStatus.NOT_RUN)).isEqualTo(9);
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    assertThat(target.refs().keySet()).containsExactly("main");
    assertThat(TableContent.hash(target))
        .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, LocalDate.parse("2026-01-10")));
  }

  @Test
  void aDryRunPlansEverySliceAndRunsNone() {
    BackfillResult result =
        Backfill.run(
            BackfillRequest.builder(
                    config,
                    ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                    "2026-01-01",
                    "2026-01-31")
                .options(o -> o.dryRun(true))
                .build());

    assertThat(result.sample()).isNull();
    assertThat(result.count(SliceStatus.PLANNED)).isEqualTo(DAYS);
    assertThat(result.plan().sample().value()).isEqualTo("2026-01-30");
    assertThat(tables.table(ExampleTables.FACT_ORDERS).currentSnapshot()).isNull();
  }

  @Test
  void aPinnedVersionOtherThanTheRunningCodeIsRefusedBeforeAnythingRuns() {
    BackfillRequest request =
        BackfillRequest.builder(
                config,
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-31")
            .expectVersion("0.0.1-not-this-build")
            .build();

    assertThatThrownBy(() -> Backfill.run(request))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("pinned to code version 0.0.1-not-this-build")
        .hasMessageContaining(CodeVersion.current());
    assertThat(tables.table(ExampleTables.FACT_ORDERS).currentSnapshot()).isNull();
    assertThat(
            Backfill.plan(request.toBuilder().expectVersion(CodeVersion.current()).build())
                .slices())
        .hasSize(DAYS);
  }

  @Test
  void aJobWithoutASliceCannotBeBackfilled() {
    String swap =
        """
        job: rebuild
        target: sales.fact_orders
        mode: swap
        query: SELECT order_id, customer_id, amount, order_date FROM sales.staging_orders
        """;

    assertThatThrownBy(
            () ->
                Backfill.run(
                    BackfillRequest.of(
                        config, ExampleTables.backfillJob(swap), "2026-01-01", "2026-01-31")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot backfill jobs/backfill.yaml: mode swap");
  }

  @Test
  void slicesInFlightTogetherAllLandWithTheirOwnContent() {
    BackfillResult result =
        Backfill.run(
            BackfillRequest.builder(
                    config,
                    ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                    "2026-01-01",
                    "2026-01-13")
                .maxConcurrency(4)
                .options(o -> o.parallelism(1))
                .build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(12);
    Map<Long, String> snapshots =
        result.outcomes().stream()
            .collect(Collectors.toMap(SliceOutcome::snapshotId, SliceOutcome::value));
    assertThat(snapshots).hasSize(12); // one snapshot per slice, none shared or lost
    for (int d = 0; d < 12; d++) {
      LocalDate day = FIRST.plusDays(d);
      ContentHash expected = tables.dayHash(ExampleTables.STAGING_ORDERS, day);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day)).as("%s", day).isEqualTo(expected);
    }
  }

  private static SliceStatus statusOf(BackfillResult result, String slice) {
    return outcome(result, slice).status();
  }

  private static SliceOutcome outcome(BackfillResult result, String slice) {
    return result.outcomes().stream()
        .filter(o -> o.value().equals(slice))
        .findFirst()
        .orElseThrow();
  }
}
