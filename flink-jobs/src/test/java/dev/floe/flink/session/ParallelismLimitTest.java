package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.job.JobSpec;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.junit.jupiter.api.Test;

/** The manifest's and the renders' limit on parallelism is Flink's own. */
class ParallelismLimitTest {
  @Test
  void theManifestsLimitIsFlinksUpperBound() {
    assertThat(JobSpec.MAX_PARALLELISM)
        .isEqualTo(KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM)
        .isEqualTo(FlinkSessions.MAX_PARALLELISM);
  }
}
