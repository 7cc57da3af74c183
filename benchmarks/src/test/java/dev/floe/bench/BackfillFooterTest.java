package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackfillFooterTest {

  @Test
  void underNoLoopTheFooterSaysNoBaselineRan() {
    String text = BackfillBenchmark.whatRan(BackfillOptions.parse("--slices", "10", "--no-loop"));

    assertThat(text).startsWith("Baseline: none ran (--no-loop)");
    assertThat(text).doesNotContain("SliceJob.run");
  }

  @Test
  void tenSlicesTenPerJobRunTheSampleTwiceThenOneJobForTheOtherNine() {
    BackfillOptions options = BackfillOptions.parse("--slices", "10", "--slices-per-job", "10");

    assertThat(options.backfillFlinkJobs(10)).isEqualTo(3);
    assertThat(BackfillBenchmark.whatRan(options))
        .contains(
            "other 9 slices with at most max-concurrency in flight, all on one shared local"
                + " cluster of max-concurrency × 1 slots: 3 Flink jobs (2 for the sample, 1 for"
                + " the other 9 slices) with --slices-per-job 10.");
  }

  @Test
  void theLoopRunsOneJobPerSliceAndABackfillOfOnePerJobOneMoreForTheSample() {
    String text = BackfillBenchmark.whatRan(BackfillOptions.parse("--slices", "100"));

    assertThat(text).contains("for each of the 100 slices").contains(": 100 Flink jobs.");
    assertThat(text).contains(": 101 Flink jobs (2 for the sample, 99 for the other 99 slices).");
  }

  @Test
  void everySlicesPerJobValueGetsItsOwnCount() {
    BackfillOptions options = BackfillOptions.parse("--slices", "200", "--slices-per-job", "1,100");

    assertThat(BackfillBenchmark.whatRan(options))
        .contains(
            ": 201 Flink jobs (2 for the sample, 199 for the other 199 slices) with"
                + " --slices-per-job 1; 4 Flink jobs (2 for the sample, 2 for the other 199"
                + " slices) with --slices-per-job 100.");
  }
}
