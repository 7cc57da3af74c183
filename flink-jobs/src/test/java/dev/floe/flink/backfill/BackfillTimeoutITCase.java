package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.cli.FloeMain;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backfill's two timeouts: each slice's (the job's timeout, or --timeout) and the whole
 * backfill's (--overall-timeout). Four days of 100 staging rows; 2026-01-02 is the slow slice
 * ({@link SlowSlice}, about a minute), the sample is the last day. The JVM is warmed up by one run
 * first, so that a fast slice takes about a second and the timeouts can be a few seconds.
 */
class BackfillTimeoutITCase {
  private static final LocalDate FIRST = LocalDate.parse("2026-01-01");

  @TempDir Path home;
  private CatalogConfig config;
  private ExampleTables tables;

  @BeforeAll
  static void warmUp(@TempDir Path warm) {
    CatalogConfig config = CatalogConfigLoader.embedded(warm);
    new ExampleTables(config).createOrders(FIRST, 1, 10);
    SliceJob.run(
        RunRequest.of(config, ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB), "2026-01-01"));
  }

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    tables = new ExampleTables(config).createOrders(FIRST, 4, 100);
  }

  @Test
  void aSlicePastItsTimeoutFailsWithExit6AndFailFastStopsTheRest() {
    BackfillRequest request =
        BackfillRequest.builder(
                config, ExampleTables.backfillJob(SlowSlice.JOB), "2026-01-01", "2026-01-05")
            .failFast(true)
            .options(o -> o.timeout(Timeout.ofFlag("--timeout", "8s")))
            .build();

    BackfillResult result = Backfill.run(request);

    assertThat(result.sample().passed()).as(result.sample().detail()).isTrue();
    assertThat(outcome(result, "2026-01-04").status()).isEqualTo(SliceStatus.COMMITTED);
    assertThat(outcome(result, "2026-01-01").status()).isEqualTo(SliceStatus.COMMITTED);
    SliceOutcome slow = outcome(result, "2026-01-02");
    assertThat(slow.status()).isEqualTo(SliceStatus.FAILED);
    assertThat(slow.exitCode()).isEqualTo(ExitCodes.TIMED_OUT);
    // Cancelled, or (on a very busy machine) stopped before its job even started: both time out.
    assertThat(slow.error())
        .startsWith("Cannot run slow_orders for 2026-01-02: timed out after 8s (--timeout)")
        .endsWith("nothing was committed");
    assertThat(outcome(result, "2026-01-03").status()).isEqualTo(SliceStatus.NOT_RUN);
    assertThat(result.exitCode()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-02")).rows())
        .isZero();
  }

  @Test
  void pastTheOverallTimeoutTheSliceInFlightIsCancelledNoOtherStartsAndTheBackfillExits6()
      throws Exception {
    Path job = Files.writeString(home.resolve("slow.yaml"), SlowSlice.JOB);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        FloeMain.execute(
            new String[] {
              "backfill",
              job.toString(),
              "--from",
              "2026-01-01",
              "--to",
              "2026-01-05",
              "--overall-timeout",
              "12s",
              "--progress",
              "none",
              "--home",
              home.toString()
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(exit).as(out + "\n" + err).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(out.toString())
        .contains("  timeout   each slice no limit; overall 12s (--overall-timeout)")
        .containsPattern(
            "2026-01-02 +\\| failed +\\| +\\| +\\| [0-9.]+ s \\| Cannot run slow_orders for"
                + " 2026-01-02: timed out when the backfill's overall timeout of 12s"
                + " \\(--overall-timeout\\) passed[^\\n]*nothing was committed")
        .containsPattern(
            "2026-01-03 +\\| not run +\\| +\\| +\\| +\\| not started: the backfill timed out when"
                + " the backfill's overall timeout of 12s \\(--overall-timeout\\) passed")
        .contains("4 slices: 2 committed, 0 no-op, 0 skipped, 1 failed, 1 not run");
    // The failure line counted the failed slice alone, as if the others were loaded.
    assertThat(err.toString())
        .contains("floe: Cannot backfill slow_orders: 1 of 4 slices failed and 1 not started;");
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-01")))
        .isEqualTo(tables.dayHash(ExampleTables.STAGING_ORDERS, LocalDate.parse("2026-01-01")));
    assertThat(tables.dayHash(ExampleTables.FACT_ORDERS, LocalDate.parse("2026-01-02")).rows())
        .isZero();
  }

  private static SliceOutcome outcome(BackfillResult result, String slice) {
    return result.outcomes().stream()
        .filter(o -> o.value().equals(slice))
        .findFirst()
        .orElseThrow();
  }
}
