package dev.floe.bench;

import dev.floe.catalog.job.JobSpec;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import java.util.ArrayList;
import java.util.List;

/**
 * The baseline: {@code floe run} for each slice in turn, in one JVM, as a script looping over the
 * command would do without a JVM start per slice. No shared cluster is open, so every {@link
 * SliceJob#run} starts and stops a MiniCluster of its own.
 */
final class RunLoopPath extends RangePath {
  static final String NAME = "floe run loop (baseline)";

  private final JobSpec job;
  private final int parallelism;
  private final List<RunResult> results = new ArrayList<>();

  RunLoopPath(JobSpec job, int parallelism) {
    super(NAME);
    this.job = job;
    this.parallelism = parallelism;
  }

  @Override
  boolean baseline() {
    return true;
  }

  @Override
  public String entryMethod() {
    return SliceJob.class.getName() + ".run";
  }

  @Override
  public void execute() {
    results.clear();
    for (String slice : days.values()) {
      results.add(
          SliceJob.run(
              RunRequest.of(catalog, job, slice).withOptions(o -> o.parallelism(parallelism))));
    }
  }

  @Override
  public void verify() {
    check(results.size() == days.slices(), results.size() + " runs");
    for (int d = 0; d < days.slices(); d++) {
      CommitOutcome outcome = results.get(d).outcome();
      String slice = days.values().get(d);
      check(outcome != null, slice + ": no outcome");
      check(outcome.status() == CommitOutcome.Status.COMMITTED, slice + ": " + outcome.status());
      check(outcome.rows() == days.rowsPerDay(), slice + ": " + outcome.rows() + " rows");
      check(
          days.hashes().get(d).encode().equals(outcome.contentHash()),
          slice + ": content hash " + outcome.contentHash());
    }
    BackfillTarget.verify(name(), catalog, days, null);
  }

  @Override
  List<Double> sliceJobSeconds() {
    return results.stream().map(r -> r.elapsedMillis() / 1000.0).toList();
  }
}
