package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backfills that load several consecutive slices in one Flink job ({@code --slices-per-job}). The
 * table must end exactly as with a job per slice: every slice's content read from the table hashes
 * like the staging rows of its day, every slice has its own commit, in slice order, and a slice
 * whose check fails is the only one that does not land.
 */
class SharedJobBackfillITCase {
  private static final LocalDate FIRST = LocalDate.parse("2026-01-01");
  private static final int DAYS = 12;

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables tables;

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    tables = new ExampleTables(config).createOrders(FIRST, DAYS, 20);
  }

  @Test
  void slicesSharingOneJobEachGetTheirOwnCommitInOrderAndAnEmptySliceIsCleared() {
    // The target holds stale rows for 2026-01-05, whose source rows are all gone: the shared job
    // must clear that slice, as its own run would.
    withCatalog(
        catalog -> {
          Table target = Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS);
          ExampleTables.replace(
              target,
              ExampleTables.day("2026-01-05"),
              List.of(order(target, 1L, "2026-01-05"), order(target, 2L, "2026-01-05")));
        });
    tables.overwriteSourceDay(LocalDate.parse("2026-01-05"), 0);

    BackfillResult result =
        Backfill.run(request(20).options(o -> o.backfillId("shared-1")).build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.flinkJobs()).isEqualTo("1 job for 11 slices (--slices-per-job 20)");
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(DAYS);
    assertEveryDayHoldsItsStagingRows();
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-05")).rows())
        .isZero();
    assertThat(tables.backfillCommitsBySlice("shared-1").values()).hasSize(DAYS).containsOnly(1);
    // The commits after the sample's follow the slices' order, oldest first.
    List<String> committed = new ArrayList<>();
    for (Snapshot snapshot :
        SnapshotUtil.currentAncestors(tables.table(ExampleTables.FACT_ORDERS))) {
      if ("shared-1".equals(snapshot.summary().get(LineageKeys.BACKFILL_ID))) {
        committed.add(0, snapshot.summary().get(LineageKeys.SLICE));
      }
    }
    assertThat(committed).hasSize(DAYS);
    assertThat(committed.get(0)).contains("2026-01-12"); // the sample (the last day) runs first
    assertThat(committed.subList(1, DAYS)).isSorted();
    assertNoUnreferencedDataFiles();
  }

  @Test
  void aSliceWhoseCheckFailsIsTheOnlyOneThatDoesNotLand() {
    // A key twice within 2026-01-04 fails that slice's unique check; the same key on two
    // different days is no duplicate for either slice.
    long dayTwoKey = LocalDate.parse("2026-01-02").toEpochDay() * 100_000L;
    long dayFourKey = LocalDate.parse("2026-01-04").toEpochDay() * 100_000L + 3;
    withCatalog(
        catalog -> {
          Table staging = Catalogs.loadTable(catalog, ExampleTables.STAGING_ORDERS);
          TableRows.append(
              staging,
              order(staging, dayTwoKey, "2026-01-03"),
              order(staging, dayFourKey, "2026-01-04"));
        });

    BackfillResult result = Backfill.run(request(20).build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(result.flinkJobs()).isEqualTo("1 job for 11 slices (--slices-per-job 20)");
    assertThat(outcome(result, "2026-01-04").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(result, "2026-01-04").error())
        .contains("Cannot commit slice order_date=[2026-01-04,2026-01-05)")
        .contains("unique")
        .contains(String.valueOf(dayFourKey));
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(DAYS - 1);
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-04")).rows())
        .isZero();
    for (int d = 0; d < DAYS; d++) {
      LocalDate day = FIRST.plusDays(d);
      if (!day.equals(LocalDate.parse("2026-01-04"))) {
        assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
            .as("content of %s", day)
            .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
      }
    }
    assertNoUnreferencedDataFiles();
  }

  @Test
  void withFailFastTheSlicesAfterAFailedOneStayUntouchedAndTheRerunLoadsThem() {
    BackfillRequest request = request(20).failFast(true).build();

    BackfillResult interrupted =
        Backfill.run(request.toBuilder().failAtSlice("2026-01-06").build());

    assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.UNEXPECTED);
    assertThat(outcome(interrupted, "2026-01-05").status()).isEqualTo(SliceStatus.COMMITTED);
    assertThat(outcome(interrupted, "2026-01-06").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(interrupted, "2026-01-06").error())
        .contains("Injected failure before the commit");
    assertNothingLandedFromTheSixthDayOn(interrupted);
    assertNoUnreferencedDataFiles();

    BackfillResult resumed = Backfill.run(request);

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(resumed.count(SliceStatus.SKIPPED)).isEqualTo(6); // 01-01..01-05 and the sample
    assertThat(resumed.count(SliceStatus.COMMITTED)).isEqualTo(6);
    assertThat(resumed.flinkJobs()).isEqualTo("1 job for 6 slices (--slices-per-job 20)");
    assertEveryDayHoldsItsStagingRows();
    assertThat(tables.backfillCommitsBySlice(resumed.plan().backfillId()).values())
        .hasSize(DAYS)
        .containsOnly(1);
  }

  @Test
  void anUnknownCommitOutcomeStopsTheJobsCommitsKeepsOnlyThatSlicesFilesAndTheRerunLoadsTheRest() {
    BackfillRequest request = request(20).build();

    // 2026-01-06's commit never reaches the catalog, and Floe cannot know that.
    BackfillResult interrupted =
        Backfill.run(
            request.toBuilder().failAtSlice("2026-01-06", FailurePoint.LOST_REQUEST).build());

    assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.COMMIT_STATE_UNKNOWN);
    assertThat(interrupted.flinkJobs()).isEqualTo("1 job for 11 slices (--slices-per-job 20)");
    assertThat(outcome(interrupted, "2026-01-05").status()).isEqualTo(SliceStatus.COMMITTED);
    assertThat(outcome(interrupted, "2026-01-06").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(interrupted, "2026-01-06").error())
        .contains("Cannot tell whether", "[LOST_REQUEST]", "the files were kept");
    // Nothing is committed after an unknown outcome, as after a run of its own.
    assertNothingLandedFromTheSixthDayOn(interrupted);
    // Only the slice whose outcome is unknown keeps its files; the later slices' are deleted.
    assertThat(unreferencedDataFiles())
        .isNotEmpty()
        .allSatisfy(file -> assertThat(file).contains("order_date=2026-01-06"));

    BackfillResult resumed = Backfill.run(request);

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(resumed.count(SliceStatus.SKIPPED)).isEqualTo(6); // 01-01..01-05 and the sample
    assertThat(resumed.count(SliceStatus.COMMITTED)).isEqualTo(6);
    assertEveryDayHoldsItsStagingRows();
    assertThat(tables.backfillCommitsBySlice(resumed.plan().backfillId()).values())
        .hasSize(DAYS)
        .containsOnly(1);
    // The kept files are orphans now (floe maintain --orphans lists them); the rerun left none.
    assertThat(unreferencedDataFiles())
        .allSatisfy(file -> assertThat(file).contains("order_date=2026-01-06"));
  }

  @Test
  void slicesAreCutIntoJobsOfAtMostSlicesPerJob() {
    BackfillResult result = Backfill.run(request(4).maxConcurrency(2).build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.flinkJobs()).isEqualTo("3 jobs for 11 slices (--slices-per-job 4)");
    assertEveryDayHoldsItsStagingRows();
  }

  @Test
  void aResumedBackfillCutsItsJobsAroundASliceItLoadedBefore() {
    BackfillResult first =
        Backfill.run(
            BackfillRequest.builder(
                    config,
                    ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                    "2026-01-03",
                    "2026-01-04")
                .options(o -> o.backfillId("gap-1"))
                .build());
    assertThat(first.exitCode()).isEqualTo(ExitCodes.OK);

    BackfillResult resumed =
        Backfill.run(request(5).options(o -> o.backfillId("gap-1").parallelism(2)).build());

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(outcome(resumed, "2026-01-03").status()).isEqualTo(SliceStatus.SKIPPED);
    // 01-01 and 01-02; then 01-04 to 01-08, 01-09 to 01-11 (01-12 is the sample)
    assertThat(resumed.flinkJobs()).isEqualTo("3 jobs for 10 slices (--slices-per-job 5)");
    assertEveryDayHoldsItsStagingRows();
  }

  @Test
  void rowsOfManySlicesInterleavedLandInTheirSlicesWhileFewWritersStayOpen() {
    // One staging file whose rows cycle through 40 days: one writer sees a slice's rows come back
    // after 39 others, more than it keeps open, so it completes and reopens slices' files.
    int days = 40; // more than SlicesWriterOperator.MAX_OPEN_SLICES (32)
    withCatalog(
        catalog -> {
          Table staging = Catalogs.loadTable(catalog, ExampleTables.STAGING_ORDERS);
          List<org.apache.iceberg.data.Record> rows = new ArrayList<>();
          for (int i = 0; i < 5; i++) {
            for (int d = 0; d < days; d++) {
              LocalDate day = FIRST.plusDays(d);
              rows.add(order(staging, day.toEpochDay() * 100_000L + i, day.toString()));
            }
          }
          ExampleTables.replace(staging, rows);
        });

    BackfillResult result =
        Backfill.run(
            BackfillRequest.builder(
                    config,
                    ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                    FIRST.toString(),
                    FIRST.plusDays(days).toString())
                .slicesPerJob(days)
                .options(o -> o.parallelism(1))
                .build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.flinkJobs()).isEqualTo("1 job for 39 slices (--slices-per-job 40)");
    for (int d = 0; d < days; d++) {
      LocalDate day = FIRST.plusDays(d);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day).rows()).isEqualTo(5);
    }
    // The writer reopened slices: a slice's rows went to more than one file.
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    assertThat(target.currentSnapshot().summary().get("total-data-files"))
        .satisfies(files -> assertThat(Integer.parseInt(files)).isGreaterThan(days));
    assertNoUnreferencedDataFiles();
  }

  @Test
  void aRowThatBreaksTheQueryFailsOnlyItsSliceAsInAJobOfItsOwn() {
    String job = jobWhoseQueryFailsOnARowOf("2026-01-03");
    assertThat(job).contains("'boom'");

    BackfillResult result = backfillOfSixDays(job, 20);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(outcome(result, "2026-01-03").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(result, "2026-01-03").error())
        .contains("its query failed while running")
        .contains("boom");
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(5);
    assertThat(result.flinkJobs())
        .isEqualTo(
            "1 job for 0 slices (--slices-per-job 20), 1 of them failed as a whole, 5 slices in"
                + " jobs of their own");
    for (String day : List.of("2026-01-01", "2026-01-02", "2026-01-04", "2026-01-05")) {
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse(day)))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, LocalDate.parse(day)));
    }
    assertNoUnreferencedDataFiles();
  }

  @Test
  void slicesThatFailFastStopsAfterAJobFailedAsAWholeCountAsNeitherSharedNorRunAlone() {
    String job = jobWhoseQueryFailsOnARowOf("2026-01-03");

    BackfillResult result = backfillOfSixDays(job, 20, request -> request.failFast(true));

    assertThat(outcome(result, "2026-01-03").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(outcome(result, "2026-01-04").status()).isEqualTo(SliceStatus.NOT_RUN);
    assertThat(outcome(result, "2026-01-05").status()).isEqualTo(SliceStatus.NOT_RUN);
    // The shared job committed none of the five; 01-01, 01-02 and 01-03 ran alone.
    assertThat(result.flinkJobs())
        .isEqualTo(
            "1 job for 0 slices (--slices-per-job 20), 1 of them failed as a whole, 3 slices in"
                + " jobs of their own");
  }

  @Test
  void theSlicesOfAFirstJobThatFailedAsAWholeRunAgainWithMaxConcurrencyInFlight() {
    String job = jobWhoseQueryFailsOnARowOf("2026-01-03");

    BackfillResult result = backfillOfSixDays(job, 20, request -> request.maxConcurrency(2));

    assertThat(result.flinkJobs())
        .isEqualTo(
            "1 job for 0 slices (--slices-per-job 20), 1 of them failed as a whole, 5 slices in"
                + " jobs of their own");
    assertThat(outcome(result, "2026-01-03").status()).isEqualTo(SliceStatus.FAILED);
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(5);
    // Each run again ended with its commit and took elapsedMillis: one after another, two runs
    // overlap by no more than what a run does after its commit; two in flight overlap by most of
    // a run.
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    List<long[]> runs = new ArrayList<>();
    for (String day : List.of("2026-01-01", "2026-01-02", "2026-01-04", "2026-01-05")) {
      SliceOutcome slice = outcome(result, day);
      long committed = target.snapshot(slice.snapshotId()).timestampMillis();
      runs.add(new long[] {committed - slice.elapsedMillis(), committed});
    }
    long widest = 0;
    long shortest = Long.MAX_VALUE;
    for (int i = 0; i < runs.size(); i++) {
      shortest = Math.min(shortest, runs.get(i)[1] - runs.get(i)[0]);
      for (int j = i + 1; j < runs.size(); j++) {
        long overlap =
            Math.min(runs.get(i)[1], runs.get(j)[1]) - Math.max(runs.get(i)[0], runs.get(j)[0]);
        widest = Math.max(widest, overlap);
      }
    }
    assertThat(widest).as("the widest overlap of two runs, ms").isGreaterThan(shortest / 2);
    for (int i = 0; i < runs.size(); i++) {
      for (int j = i + 1; j < runs.size(); j++) {
        for (int k = j + 1; k < runs.size(); k++) {
          long three =
              Math.min(runs.get(i)[1], Math.min(runs.get(j)[1], runs.get(k)[1]))
                  - Math.max(runs.get(i)[0], Math.max(runs.get(j)[0], runs.get(k)[0]));
          assertThat(three)
              .as("the overlap of three runs, ms (at most 2 in flight)")
              .isLessThan(shortest / 2);
        }
      }
    }
    for (String day : List.of("2026-01-01", "2026-01-02", "2026-01-04", "2026-01-05")) {
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse(day)))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, LocalDate.parse(day)));
    }
    assertNoUnreferencedDataFiles();
  }

  @Test
  void aLaterGroupWhoseQueryDoesNotSplitRunsItsSlicesAlone() {
    // The range of the second group, [01-03, 01-05), ends on the date the query names itself:
    // its bound would appear twice in its plan, so that group does not split; the first does.
    String job =
        ExampleTables.BACKFILL_JOB.replace(
            "AND order_date < :slice_end",
            "AND order_date < :slice_end AND order_date <> DATE '2026-01-05'");

    BackfillResult result = backfillOfSixDays(job, 2);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.outcomes()).hasSize(6);
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(5);
    assertThat(outcome(result, "2026-01-05").status()).isEqualTo(SliceStatus.NO_OP); // no rows
    assertThat(result.flinkJobs())
        .isEqualTo("1 job for 2 slices (--slices-per-job 2), 3 slices in jobs of their own");
    for (String day : List.of("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04")) {
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse(day)))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, LocalDate.parse(day)));
    }
  }

  @Test
  void aQueryThatReadsSeveralRowsTogetherRunsAJobPerSliceAndSaysWhy() {
    String distinct =
        ExampleTables.BACKFILL_JOB.replace("SELECT order_id", "SELECT DISTINCT order_id");

    BackfillResult result =
        Backfill.run(
            BackfillRequest.builder(
                    config, ExampleTables.backfillJob(distinct), "2026-01-01", "2026-01-05")
                .slicesPerJob(20)
                .build());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(result.flinkJobs())
        .startsWith("one per slice: the query is not a SELECT of columns and expressions");
    assertThat(result.count(SliceStatus.COMMITTED)).isEqualTo(4);
    for (int d = 0; d < 4; d++) {
      LocalDate day = FIRST.plusDays(d);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
    }
  }

  private BackfillRequest.Builder request(int slicesPerJob) {
    return BackfillRequest.builder(
            config,
            ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
            FIRST.toString(),
            FIRST.plusDays(DAYS).toString())
        .slicesPerJob(slicesPerJob)
        .options(o -> o.parallelism(2));
  }

  /** 2026-01-07 and later were not run, and from 2026-01-06 on the target holds no rows. */
  private void assertNothingLandedFromTheSixthDayOn(BackfillResult interrupted) {
    assertThat(outcome(interrupted, "2026-01-07").status()).isEqualTo(SliceStatus.NOT_RUN);
    assertThat(outcome(interrupted, "2026-01-11").status()).isEqualTo(SliceStatus.NOT_RUN);
    for (String day : List.of("2026-01-06", "2026-01-07", "2026-01-11")) {
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse(day)).rows())
          .as("rows of %s", day)
          .isZero();
    }
  }

  /** The backfill job, whose query fails on one row of {@code day} (a cast of 'boom'). */
  private static String jobWhoseQueryFailsOnARowOf(String day) {
    long bad = LocalDate.parse(day).toEpochDay() * 100_000L + 5;
    return ExampleTables.BACKFILL_JOB.replace(
        "SELECT order_id, customer_id,",
        "SELECT order_id, CAST(CASE WHEN order_id = "
            + bad
            + " THEN 'boom' ELSE CAST(customer_id AS STRING) END AS BIGINT) AS customer_id,");
  }

  /** {@code job} (the text of a job manifest) backfilled over 2026-01-01 to 2026-01-07. */
  private BackfillResult backfillOfSixDays(String job, int slicesPerJob) {
    return backfillOfSixDays(job, slicesPerJob, request -> request);
  }

  /** The same, with more of the request set by {@code more}. */
  private BackfillResult backfillOfSixDays(
      String job, int slicesPerJob, UnaryOperator<BackfillRequest.Builder> more) {
    return Backfill.run(
        more.apply(
                BackfillRequest.builder(
                        config, ExampleTables.backfillJob(job), "2026-01-01", "2026-01-07")
                    .slicesPerJob(slicesPerJob))
            .build());
  }

  private void assertEveryDayHoldsItsStagingRows() {
    for (int d = 0; d < DAYS; d++) {
      LocalDate day = FIRST.plusDays(d);
      assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, day))
          .as("content of %s", day)
          .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, day));
    }
  }

  /** Every data file under the target's data directory is in some snapshot: none was left over. */
  private void assertNoUnreferencedDataFiles() {
    assertThat(unreferencedDataFiles()).isEmpty();
  }

  /** The data files under the target's data directory that no snapshot references. */
  private List<String> unreferencedDataFiles() {
    Table target = tables.table(ExampleTables.FACT_ORDERS);
    Set<String> referenced = new HashSet<>();
    for (Snapshot snapshot : target.snapshots()) {
      try (CloseableIterable<FileScanTask> tasks =
          target.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        tasks.forEach(task -> referenced.add(localPath(task.file().location()).toString()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path data = localPath(target.location()).resolve("data");
    try (Stream<Path> files = Files.walk(data)) {
      return files
          .filter(p -> p.toString().endsWith(".parquet"))
          .map(Path::toString)
          .filter(file -> !referenced.contains(file))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void withCatalog(java.util.function.Consumer<Catalog> action) {
    Catalog catalog = Catalogs.open(config);
    try {
      action.accept(catalog);
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static Path localPath(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }

  private static org.apache.iceberg.data.Record order(Table table, long id, String day) {
    return TableRows.row(
        table,
        Map.of(
            "order_id",
            id,
            "customer_id",
            1L,
            "amount",
            new BigDecimal("5.00"),
            "order_date",
            LocalDate.parse(day)));
  }

  private static SliceOutcome outcome(BackfillResult result, String slice) {
    return result.outcomes().stream()
        .filter(o -> o.value().equals(slice))
        .findFirst()
        .orElseThrow();
  }
}
