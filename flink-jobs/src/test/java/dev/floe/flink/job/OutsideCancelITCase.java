package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.runtime.client.JobExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose Flink job someone else cancelled (an operator, the web UI, the cluster) says what the
 * table holds: committed when its commit had landed before the cancel, else that nothing was.
 */
class OutsideCancelITCase {
  @TempDir Path home;

  @Test
  void aCancelFromOutsideReportsTheCommitThatLandedOrThatNothingWasCommitted() throws Exception {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders();
    RunRequest request =
        RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), "2026-10-03");
    RunResult committed = SliceJob.run(request);
    Exception cancel =
        new JobExecutionException(
            new JobID(),
            "Job execution failed.",
            new JobCancellationException(new JobID(), "Job was cancelled.", null));

    CommitOutcome landed =
        SliceJob.afterOutsideCancel(
            request, "run fact_orders_daily for 2026-10-03", committed.runId(), null, cancel);

    assertThat(JobFailures.wasCancelled(cancel)).isTrue();
    assertThat(JobFailures.wasCancelled(new IllegalStateException("Job failed"))).isFalse();
    assertThat(landed.status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(landed.snapshotId()).isEqualTo(committed.outcome().snapshotId());
    assertThat(landed.rows()).isEqualTo(committed.outcome().rows());
    assertThat(landed.detail())
        .contains("cancelled from outside Floe, after the commit had landed");
    assertThatThrownBy(
            () ->
                SliceJob.afterOutsideCancel(
                    request, "run fact_orders_daily for 2026-10-03", "no-such-run", null, cancel))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot run fact_orders_daily for 2026-10-03: its Flink job was cancelled from outside"
                + " Floe (an operator, the web UI or the cluster) before it committed; nothing was"
                + " committed, and rerunning is safe");
  }
}
