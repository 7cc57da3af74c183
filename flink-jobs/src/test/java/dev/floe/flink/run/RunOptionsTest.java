package dev.floe.flink.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.job.Timeout;
import org.junit.jupiter.api.Test;

class RunOptionsTest {

  @Test
  void toBuilderKeepsEveryOption() {
    RunOptions options =
        RunOptions.builder()
            .parallelism(3)
            .dryRun(true)
            .forceCommit(true)
            .maxConflictRetries(7)
            .failAt(FailurePoint.BEFORE_COMMIT)
            .publish(PublishMode.MANUAL)
            .backfillId("oct_rebuild")
            .allowEffects(true)
            .timeout(Timeout.ofFlag("--timeout", "30m"))
            .build();

    assertThat(options.toBuilder().build()).isEqualTo(options);
    assertThat(options.toBuilder().parallelism(4).build().parallelism()).isEqualTo(4);
  }

  @Test
  void theDefaultsAreThoseOfAPlainRun() {
    RunOptions options = RunOptions.defaults();

    assertThat(options.parallelism()).isZero();
    assertThat(options.dryRun()).isFalse();
    assertThat(options.forceCommit()).isFalse();
    assertThat(options.maxConflictRetries())
        .isEqualTo(Integer.parseInt(RunOptions.DEFAULT_MAX_CONFLICT_RETRIES));
    assertThat(options.failAt()).isEqualTo(FailurePoint.NONE);
    assertThat(options.publish()).isEqualTo(PublishMode.AUTO);
    assertThat(options.backfillId()).isNull();
    assertThat(options.timeout()).isNull();
  }

  @Test
  void onlyABackfillSliceWithoutAllowEffectsHoldsItsEffectsBack() {
    assertThat(RunOptions.defaults().sendsEffects()).isTrue();
    assertThat(RunOptions.builder().backfillId("b").build().sendsEffects()).isFalse();
    assertThat(RunOptions.builder().backfillId("b").allowEffects(true).build().sendsEffects())
        .isTrue();
  }
}
