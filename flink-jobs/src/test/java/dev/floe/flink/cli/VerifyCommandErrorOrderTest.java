package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code floe verify} reports a bad invocation in a fixed order: the slice and the parallelism the
 * run request checks come before a bad {@code --timeout}.
 */
class VerifyCommandErrorOrderTest {
  @TempDir Path home;

  private String job() {
    return CliRun.examples().resolve("jobs/fact_orders_daily.yaml").toString();
  }

  @Test
  void verifyWithoutSliceStillSaysMissingSliceWhenTheTimeoutIsAlsoBad() {
    CliRun run = CliRun.floe(home, "verify", job(), "--timeout", "nope");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("missing --slice");
  }

  @Test
  void verifyWithNegativeParallelismStillSaysSoWhenTheTimeoutIsAlsoBad() {
    CliRun run =
        CliRun.floe(
            home,
            "verify",
            job(),
            "--slice",
            "2026-01-01",
            "--parallelism",
            "-1",
            "--timeout",
            "nope");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Cannot use --parallelism -1: give 1 to 32768");
  }
}
