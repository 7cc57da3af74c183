package dev.floe.bench;

import dev.floe.catalog.job.JobSpec;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import java.util.List;

/**
 * Goal 1's throughput, measured beside the backfills: the range's rows staged as ONE day (in as
 * many files as the run's parallelism, so every task reads a split) and loaded by one {@code floe
 * run} ({@link SliceJob#run}, a MiniCluster of its own, as goal 1's harness runs it). A backfill of
 * the same rows at this rows/s, with no cost per slice, would take {@code rows ÷ rows/s}; what it
 * takes beyond that, over its slices, is its per-slice overhead.
 */
final class SingleRunPath extends RangePath {
  static final String NAME = "floe run, all rows in one slice";

  private final JobSpec job;
  private final int parallelism;
  private RunResult result;

  SingleRunPath(JobSpec job, int parallelism) {
    super(NAME + ", parallelism " + parallelism);
    this.job = job;
    this.parallelism = parallelism;
  }

  @Override
  boolean baseline() {
    return false;
  }

  @Override
  boolean oneSlice() {
    return true;
  }

  /** Staging files of the one day: one per task. */
  int files() {
    return parallelism;
  }

  @Override
  public String entryMethod() {
    return SliceJob.class.getName() + ".run";
  }

  @Override
  public void execute() {
    result =
        SliceJob.run(
            RunRequest.of(catalog, job, days.from()).withOptions(o -> o.parallelism(parallelism)));
  }

  @Override
  public void verify() {
    CommitOutcome outcome = result.outcome();
    check(days.slices() == 1, days.slices() + " days staged");
    check(outcome != null, "no outcome");
    check(outcome.status() == CommitOutcome.Status.COMMITTED, "status " + outcome.status());
    check(outcome.rows() == days.rowsPerDay(), outcome.rows() + " rows");
    check(
        days.hashes().get(0).encode().equals(outcome.contentHash()),
        "content hash " + outcome.contentHash());
    BackfillTarget.verify(name(), catalog, days, null);
  }

  @Override
  List<Double> sliceJobSeconds() {
    return List.of(result.elapsedMillis() / 1000.0);
  }
}
