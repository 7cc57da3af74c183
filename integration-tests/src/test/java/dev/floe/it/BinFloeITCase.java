package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command and the tour, through bin/floe in a fresh working directory. */
class BinFloeITCase {
  @TempDir Path work;

  @Test
  void helpAndTheVersionLeaveNoFloeHomeInTheWorkingDirectory() throws Exception {
    for (String[] args :
        List.of(
            new String[] {"--help"},
            new String[] {"snapshots", "--help"},
            new String[] {"--version"},
            new String[] {"help", "run"})) {
      BinFloe.Result result = BinFloe.run(work, args);

      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.err()).as("no warning about logs").doesNotContain("floe: warning");
      try (Stream<Path> left = Files.list(work)) {
        assertThat(left.map(p -> p.getFileName().toString()))
            .as(String.join(" ", args))
            .allMatch(name -> name.startsWith("out") || name.startsWith("err"));
      }
    }
    // A command that uses the home still makes it, with its logs folder.
    BinFloe.Result snapshots = BinFloe.run(work, "snapshots", "sales.missing");
    assertThat(snapshots.exitCode()).isEqualTo(2);
    assertThat(work.resolve(".floe/logs")).isDirectory();
  }

  /**
   * The first quickstart shows both seed examples, the second commits nothing, and after a run
   * loads another day (as the README's tour does) a third still counts only its own day. One home
   * for all three: each quickstart costs about 20 s of the suite.
   */
  @Test
  void quickstartShowsBothSeedExamplesIsItselfRerunSafeAndCountsOnlyItsDayAfterAnotherLoaded()
      throws Exception {
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

    String merged = assertTheDimensionHalf(first.out(), "committed");
    // The second quickstart reseeds the same rows: its first merge is a no-op on the same snapshot.
    assertThat(assertTheDimensionHalf(second.out(), "no-op")).isEqualTo(merged);

    String job = BinFloe.repoRoot().resolve("examples/jobs/fact_orders_daily.yaml").toString();
    BinFloe.Result otherDay = BinFloe.run(work, "run", job, "--slice", "2026-10-04");
    BinFloe.Result again = BinFloe.run(work, "quickstart");

    assertThat(otherDay.exitCode()).as(otherDay.err()).isZero();
    assertThat(otherDay.out()).contains("status    committed");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.out()).containsPattern("\\s2 \\| 70\\.00");
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

  /**
   * The seed's dimension example: the merge keeps customer 10's newer 'pro' row, its rerun and the
   * replay of the older 09:00 row commit nothing, and 10 is still 'pro' afterwards. Returns the
   * dimension's snapshot id.
   */
  private static String assertTheDimensionHalf(String out, String firstMergeStatus) {
    QuickstartOutput steps = QuickstartOutput.of(out);
    List<String> merges = steps.running("floe run examples/jobs/dim_customer_merge.yaml");
    List<String> dimensions =
        steps.running("floe sql \"SELECT customer_id, tier, updated_at FROM sales.dim_customer");
    List<String> replays = steps.running("floe sql -f examples/sql/replay_old_customer_batch.sql");

    assertThat(merges).as(out).hasSize(3);
    assertThat(merges.get(0)).contains(firstMergeStatus + ": snapshot", "3 source rows, 2 keys");
    assertThat(merges.get(1)).contains("no-op: snapshot", "0 inserted, 0 updated, 2 unchanged");
    assertThat(replays).hasSize(1);
    assertThat(merges.get(2)).contains("no-op: snapshot", "0 inserted, 0 updated, 1 unchanged");
    String snapshot = QuickstartOutput.snapshot(merges.get(0));
    assertThat(merges)
        .allSatisfy(merge -> assertThat(QuickstartOutput.snapshot(merge)).isEqualTo(snapshot));
    // The same rows after the first merge and after the replay, as the seed prints them.
    assertThat(dimensions).as(out).hasSize(2);
    for (String dimension : dimensions) {
      assertThat(QuickstartOutput.lines(dimension))
          .containsSubsequence(
              "customer_id tier updated_at",
              "10 pro 2026-10-03 12:00:00+00",
              "11 free 2026-10-03 10:00:00+00",
              "(2 rows)");
    }
    // In the seed's order: merge, look, merge again, replay the older row, merge, look again.
    assertThat(
            Stream.of(
                    merges.get(0),
                    dimensions.get(0),
                    merges.get(1),
                    replays.get(0),
                    merges.get(2),
                    dimensions.get(1))
                .map(out::indexOf)
                .toList())
        .isSorted();
    return snapshot;
  }
}
