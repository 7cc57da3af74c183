package dev.floe.bench;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.JobSpec;
import dev.floe.flink.backfill.Backfill;
import dev.floe.flink.backfill.BackfillRequest;
import dev.floe.flink.backfill.BackfillResult;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import java.util.List;

/**
 * {@link Backfill#run} over the whole range, as {@code floe backfill --from --to} calls it: the
 * sample slice twice (on main, then into a scratch branch), then the rest with at most {@code
 * maxConcurrency} in flight (and, with {@code slicesPerJob} above 1, up to that many consecutive
 * slices in one Flink job), all on one shared local Flink cluster.
 */
final class BackfillPath extends RangePath {
  private final JobSpec job;
  private final int maxConcurrency;
  private final int slicesPerJob;
  private final int parallelism;
  private BackfillResult last;

  BackfillPath(JobSpec job, int maxConcurrency, int slicesPerJob, int parallelism) {
    super(
        "floe backfill, max-concurrency "
            + maxConcurrency
            + (slicesPerJob == 1 ? "" : ", slices-per-job " + slicesPerJob));
    this.job = job;
    this.maxConcurrency = maxConcurrency;
    this.slicesPerJob = slicesPerJob;
    this.parallelism = parallelism;
  }

  @Override
  boolean baseline() {
    return false;
  }

  @Override
  public String entryMethod() {
    return Backfill.class.getName() + ".run";
  }

  @Override
  public void execute() {
    last =
        Backfill.run(
            BackfillRequest.builder(catalog, job, days.from(), days.to())
                .maxConcurrency(maxConcurrency)
                .slicesPerJob(slicesPerJob)
                .options(o -> o.parallelism(parallelism))
                .build());
  }

  @Override
  public void verify() {
    check(last.exitCode() == ExitCodes.OK, "exit code " + last.exitCode() + ": " + failures());
    check(last.sample() != null && last.sample().passed(), "sample " + last.sample());
    check(last.outcomes().size() == days.slices(), last.outcomes().size() + " slices");
    // The footer counts the Flink jobs with BackfillOptions' rule: the run must have used as many.
    int jobsAfterSample = BackfillOptions.flinkJobsAfterSample(days.slices(), slicesPerJob);
    check(
        slicesPerJob == 1
            || jobsAfterSample == 0
            || (last.flinkJobs()
                    .startsWith(jobsAfterSample + (jobsAfterSample == 1 ? " job " : " jobs "))
                && !last.flinkJobs().contains("of their own")),
        "Flink jobs: " + last.flinkJobs() + ", expected " + jobsAfterSample + " after the sample");
    for (int d = 0; d < days.slices(); d++) {
      SliceOutcome outcome = last.outcomes().get(d);
      String slice = days.values().get(d);
      check(slice.equals(outcome.value()), "slice " + outcome.value() + " in place of " + slice);
      check(outcome.status() == SliceStatus.COMMITTED, slice + ": " + outcome.status());
      check(outcome.rows() == days.rowsPerDay(), slice + ": " + outcome.rows() + " rows");
      check(
          days.hashes().get(d).encode().equals(outcome.contentHash()),
          slice + ": content hash " + outcome.contentHash());
    }
    BackfillTarget.verify(name(), catalog, days, last.plan().backfillId());
  }

  @Override
  List<Double> sliceJobSeconds() {
    return last.outcomes().stream().map(o -> o.elapsedMillis() / 1000.0).toList();
  }

  private String failures() {
    return last.outcomes().stream()
        .filter(SliceOutcome::failed)
        .map(o -> o.value() + ": " + o.error())
        .toList()
        .toString();
  }
}
