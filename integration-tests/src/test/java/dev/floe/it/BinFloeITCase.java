package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command and the tour, through bin/floe in a fresh working directory. */
class BinFloeITCase {
  @TempDir Path work;

  @Test
  void quickstartShowsTwoRowsTotalling70AndIsItselfRerunSafe() throws Exception {
    BinFloe.Result first = BinFloe.run(work, "quickstart");
    BinFloe.Result second = BinFloe.run(work, "quickstart");

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out())
        .contains("create table sales.fact_orders")
        .contains("committed: 2 rows")
        .contains("no-op: 2 rows")
        .containsPattern("rows_for_day \\| total")
        .containsPattern("\\s2 \\| 70\\.00")
        .contains("fact_orders_daily", "order_date=[2026-10-03,2026-10-04)");
    assertThat(Files.exists(work.resolve(".floe/catalog.db"))).isTrue();
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out()).contains("no changes").containsPattern("\\s2 \\| 70\\.00");
    // Still exactly one snapshot: the second quickstart committed nothing to the fact table.
    assertThat(second.out()).contains("(1 row)\n   * = current snapshot");
  }

  @Test
  void theTourRunsFromTheRepositoryExamplesWithScriptableExitCodes() throws Exception {
    Path examples = BinFloe.repoRoot().resolve("examples");
    assertThat(
            BinFloe.run(work, "tables", "apply", examples.resolve("tables").toString()).exitCode())
        .isZero();
    assertThat(
            BinFloe.run(work, "sql", "-f", examples.resolve("sql/seed_staging.sql").toString())
                .exitCode())
        .isZero();
    String job = examples.resolve("jobs/fact_orders_daily.yaml").toString();

    BinFloe.Result load = BinFloe.run(work, "run", job, "--slice", "2026-10-03");
    BinFloe.Result rerun = BinFloe.run(work, "run", job, "--slice", "2026-10-03");
    BinFloe.Result missingSlice = BinFloe.run(work, "run", job);

    assertThat(load.exitCode()).as(load.err()).isZero();
    assertThat(load.out()).contains("status    committed");
    assertThat(rerun.exitCode()).isZero();
    assertThat(rerun.out()).contains("status    no-op");
    assertThat(missingSlice.exitCode()).isEqualTo(2);
    assertThat(missingSlice.err()).contains("missing --slice");
  }
}
