package dev.floe.flink.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.backfill.BackfillEffects;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.EffectSpecParser;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Side effects and backfills, counted by a real HTTP server: slices fire no effects unless allowed,
 * and {@code on_backfill_done} is sent exactly once, when the range is complete.
 */
class BackfillEffectsITCase {
  @TempDir Path home;
  @RegisterExtension final WebhookServer server = new WebhookServer();
  private CatalogConfig config;
  private RunEffects effects;

  @BeforeEach
  void createTables() {
    config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 5, 10);
    effects =
        new RunEffects(
            DeliverySettings.of(
                Clock.fixed(Instant.parse("2026-02-01T02:00:00Z"), ZoneOffset.UTC),
                millis -> {},
                Map.of()));
  }

  @Test
  void slicesSendNothingAndTheDoneWebhookFiresOnceWhenTheRangeIsComplete() {
    JobSpec job = jobWithEffect();
    BackfillRequest request =
        BackfillRequest.builder(config, job, "2026-01-01", "2026-01-06")
            .onBackfillDone(doneWebhook())
            .build();

    BackfillResult interrupted =
        Backfill.run(
            request.toBuilder().failAtSlice("2026-01-02").build(), BackfillListener.NONE, effects);

    assertThat(interrupted.exitCode()).isEqualTo(ExitCodes.UNEXPECTED);
    assertThat(interrupted.doneEffects().note()).contains("held back");
    assertThat(server.count()).isZero(); // four slices committed, no webhook
    assertThat(interrupted.outcomes().get(0).effects()).contains("skipped");

    BackfillResult resumed = Backfill.run(request, BackfillListener.NONE, effects);
    BackfillResult repeated = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(repeated.count(SliceStatus.SKIPPED)).isEqualTo(5);
    assertThat(server.requests()).hasSize(1);
    WebhookServer.Request done = server.requests().get(0);
    assertThat(done.path()).isEqualTo("/done");
    assertThat(done.body())
        .contains("\"backfill\": \"" + resumed.plan().backfillId() + "\"")
        .contains("\"slices\": 5")
        .contains("\"range\": \"2026-01-01/2026-01-06\"");
    assertThat(done.headers().get("idempotency-key"))
        .startsWith("backfill:" + resumed.plan().backfillId() + ":")
        .endsWith("/tell_bi");

    // A daily run that finds a backfilled slice unchanged does not send what the backfill held.
    RunRequest daily = RunRequest.of(config, job, "2026-01-03");
    RunResult noOp = SliceJob.run(daily);
    effects.deliver(daily, noOp, true);
    assertThat(server.count()).isEqualTo(1);
  }

  @Test
  void allowEffectsSendsEachSlicesEffectOnceAndTheScratchRunSendsNone() {
    BackfillRequest request =
        BackfillRequest.builder(config, jobWithEffect(), "2026-01-01", "2026-01-04")
            .options(o -> o.allowEffects(true))
            .build();

    BackfillResult first = Backfill.run(request, BackfillListener.NONE, effects);
    BackfillResult again = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(first.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(again.count(SliceStatus.SKIPPED)).isEqualTo(3);
    assertThat(server.requests()).hasSize(3);
    assertThat(server.requests().stream().map(r -> r.body()).toList())
        .allMatch(body -> body.contains("\"target\": \"sales.fact_orders\""))
        .anyMatch(body -> body.contains("order_date=[2026-01-01,2026-01-02)"))
        .anyMatch(body -> body.contains("order_date=[2026-01-03,2026-01-04)"));
  }

  @Test
  void aResumedBackfillWithEffectsSendsWhatASliceThatDiedAfterItsCommitOwes() {
    BackfillRequest request =
        BackfillRequest.builder(config, jobWithEffect(), "2026-01-01", "2026-01-04")
            .options(o -> o.allowEffects(true))
            .build();

    // 2026-01-02 commits, then its process dies before sending (the sample, 01-03, runs first).
    BackfillResult died =
        Backfill.run(
            request.toBuilder()
                .failAtSlice("2026-01-02", dev.floe.catalog.commit.FailurePoint.AFTER_COMMIT)
                .build(),
            BackfillListener.NONE,
            effects);
    int sentBeforeTheResume = server.count();
    BackfillResult resumed = Backfill.run(request, BackfillListener.NONE, effects);
    BackfillResult repeated = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(died.exitCode()).isNotEqualTo(ExitCodes.OK);
    assertThat(sentBeforeTheResume).isEqualTo(2);
    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(resumed.count(SliceStatus.SKIPPED)).isEqualTo(3);
    assertThat(repeated.count(SliceStatus.SKIPPED)).isEqualTo(3);
    assertThat(server.requests()).hasSize(3);
    assertThat(server.requests().stream().map(r -> r.body()).toList())
        .anyMatch(body -> body.contains("order_date=[2026-01-02,2026-01-03)"));
  }

  @Test
  void aResumedBackfillWithEffectsSendsWhatItsSampleSliceOwes() {
    BackfillRequest request =
        BackfillRequest.builder(config, jobWithEffect(), "2026-01-01", "2026-01-04")
            .options(o -> o.allowEffects(true))
            .build();

    // The sample (the last slice, run first) commits, then its process dies before sending.
    Backfill.run(
        request.toBuilder()
            .failAtSlice("2026-01-03", dev.floe.catalog.commit.FailurePoint.AFTER_COMMIT)
            .build(),
        BackfillListener.NONE,
        effects);
    int sentBeforeTheResume = server.count();
    BackfillResult resumed = Backfill.run(request, BackfillListener.NONE, effects);

    assertThat(sentBeforeTheResume).isZero();
    assertThat(resumed.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(server.requests()).hasSize(3);
    assertThat(server.requests().stream().map(r -> r.body()).toList())
        .anyMatch(body -> body.contains("order_date=[2026-01-03,2026-01-04)"));
  }

  private JobSpec jobWithEffect() {
    String yaml =
        ExampleTables.BACKFILL_JOB
            + "effects:\n  - {name: notify, webhook: {url: \""
            + server.url("/slice")
            + "\"}}\n";
    return ExampleTables.backfillJob(yaml);
  }

  private List<EffectSpec> doneWebhook() {
    String yaml =
        "on_backfill_done:\n  - name: tell_bi\n    webhook:\n      url: \""
            + server.url("/done")
            + "\"\n      body: '{\"backfill\": \"${backfill_id}\", \"slices\": ${slices},"
            + " \"range\": \"${from}/${to}\"}'\n";
    return EffectSpecParser.parse(
        Manifests.parse("backfills/x.yaml", yaml).child("on_backfill_done"),
        BackfillEffects.VARIABLES);
  }
}
