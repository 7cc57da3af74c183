package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe run --backfill-id`: refused inputs, before anything runs. */
class RunBackfillIdOptionTest {
  @TempDir Path home;

  private final String job = CliRun.examples().resolve("jobs/fact_orders_daily.yaml").toString();

  @Test
  void refusesABackfillIdThatWouldNotSurviveAShellOrASnapshotSummary() {
    CliRun run = CliRun.floe(home, "run", job, "--slice", "2026-10-03", "--backfill-id", "a b;c");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot use backfill id 'a b;c' from --backfill-id");
  }

  @Test
  void refusesAllowEffectsWithoutABackfillId() {
    CliRun run = CliRun.floe(home, "run", job, "--slice", "2026-10-03", "--allow-effects");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot run").contains("--allow-effects");
  }
}
