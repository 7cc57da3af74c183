package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.Outbox;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Publish;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.run.PublishMode;
import dev.floe.flink.run.RunOptions;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Effects of real runs (Flink MiniCluster, embedded catalog, a real HTTP server) through the Java
 * API `floe run` uses: {@link SliceJob#run} then {@link RunEffects#deliver}. Waits between attempts
 * are recorded, never slept.
 */
class RunEffectsITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DAY = "2026-10-03";

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private final List<Duration> slept = new ArrayList<>();
  private CatalogConfig config;
  private ExampleTables seed;
  private RunEffects effects;

  @BeforeEach
  void seedTheExample() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createOrders();
    effects =
        new RunEffects(
            DeliverySettings.of(
                Clock.fixed(Instant.parse("2026-10-04T02:00:00Z"), ZoneOffset.UTC),
                slept::add,
                Map.of("BI_TOKEN", "tok-123")));
  }

  @Test
  void aServerFailingTwiceThenAnsweringGetsExactlyThreePostsAndTheEffectEndsSent()
      throws Exception {
    JobSpec job = job(5);
    server.failNext(2, 503);

    RunRequest request = RunRequest.of(config, job, DAY);
    RunResult result = SliceJob.run(request);
    EffectsReport report = effects.deliver(request, result, true);

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(server.count()).isEqualTo(3);
    assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(report.deliveries())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.outcome()).isEqualTo(Delivery.Outcome.SENT);
              assertThat(d.attempts()).isEqualTo(3);
            });
    assertThat(report.warnings()).isEmpty();
    assertThat(outbox())
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.status()).isEqualTo(EffectStatus.SENT);
              assertThat(row.attempts()).isEqualTo(3);
              assertThat(row.key().runKey()).isEqualTo(result.runKey());
            });
    JsonNode body = JSON.readTree(server.requests().get(2).body());
    assertThat(body.get("table").asText()).isEqualTo("sales.fact_orders");
    assertThat(body.get("slice").asText()).isEqualTo("order_date=[2026-10-03,2026-10-04)");
    assertThat(body.get("snapshot").asLong())
        .isEqualTo(seed.table("sales.fact_orders").currentSnapshot().snapshotId());
    assertThat(body.get("rows").asLong()).isEqualTo(2);
    assertThat(server.requests().get(2).headers())
        .containsEntry("authorization", "Bearer tok-123")
        .containsEntry("idempotency-key", result.runKey() + "/notify_bi");
  }

  @Test
  void aCrashAfterTheCommitBeforeSendingIsSentByTheNextRunExactlyOnce() throws Exception {
    JobSpec job = job(5);
    // The process commits, then dies before RunEffects runs: nothing recorded, nothing sent.
    RunResult crashed = SliceJob.run(RunRequest.of(config, job, DAY));
    long committed = seed.table("sales.fact_orders").currentSnapshot().snapshotId();
    ContentHash content = TableContent.hash(seed.table("sales.fact_orders"));
    assertThat(server.count()).isZero();

    // A dry run reports the would-be no-op as NO_OP: it must not recover (send) anything.
    RunRequest dryRun =
        RunRequest.of(
            config, job, DAY, RunOptions.builder().maxConflictRetries(1).dryRun(true).build());
    EffectsReport dry = effects.deliver(dryRun, SliceJob.run(dryRun), true);
    int afterDryRun = server.count();
    RunRequest request = RunRequest.of(config, job, DAY);
    RunResult retry = SliceJob.run(request);
    EffectsReport recovered = effects.deliver(request, retry, true);
    RunResult rerun = SliceJob.run(request);
    EffectsReport again = effects.deliver(request, rerun, true);

    assertThat(dry.deliveries()).isEmpty();
    assertThat(dry.note()).startsWith("dry run: nothing recorded or sent");
    assertThat(afterDryRun).isZero();
    assertThat(retry.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(TableContent.hash(seed.table("sales.fact_orders"))).isEqualTo(content);
    assertThat(recovered.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(again.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
    // The effect announces the commit that crashed, not the no-op that found it.
    JsonNode body = JSON.readTree(server.requests().get(0).body());
    assertThat(body.get("snapshot").asLong()).isEqualTo(committed);
    assertThat(body.get("run_id").asText()).isEqualTo(crashed.runId());
  }

  @Test
  void withEffectsOffNothingIsSentNowNorByALaterRerun() throws Exception {
    JobSpec job = job(5);

    RunRequest request = RunRequest.of(config, job, DAY);
    RunResult backfilled = SliceJob.run(request);
    EffectsReport off = effects.deliver(request, backfilled, false);
    RunResult rerun = SliceJob.run(request);
    EffectsReport later = effects.deliver(request, rerun, true);

    assertThat(backfilled.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(off.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SKIPPED);
    assertThat(later.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SKIPPED);
    assertThat(server.count()).isZero();
    assertThat(outbox()).extracting(OutboxEntry::status).containsExactly(EffectStatus.SKIPPED);
  }

  @Test
  void aBackfillSliceThatDiedBeforeSendingIsSentByItsOwnBackfillsRerunNotByAPlainOne()
      throws Exception {
    JobSpec job = job(5);
    RunOptions backfill = RunOptions.builder().backfillId("bf1").allowEffects(true).build();
    // The slice commits with effects allowed, then its process dies before sending.
    SliceJob.run(RunRequest.of(config, job, DAY, backfill));

    RunRequest plain = RunRequest.of(config, job, DAY);
    EffectsReport byAPlainRerun = effects.deliver(plain, SliceJob.run(plain), true);
    int afterThePlainRerun = server.count();
    RunRequest sameBackfill = RunRequest.of(config, job, DAY, backfill);
    EffectsReport byItsBackfill = effects.deliver(sameBackfill, SliceJob.run(sameBackfill), true);
    EffectsReport again = effects.deliver(sameBackfill, SliceJob.run(sameBackfill), true);

    assertThat(byAPlainRerun.deliveries()).isEmpty();
    assertThat(afterThePlainRerun).isZero();
    assertThat(byItsBackfill.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(again.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
  }

  @Test
  void anAuditBranchRunSendsNothingAndRecordsNothing() {
    JobSpec job = job(5);

    RunRequest request =
        RunRequest.of(config, job, DAY).withOptions(o -> o.publish(PublishMode.MANUAL));
    RunResult audited = SliceJob.run(request);
    EffectsReport report = effects.deliver(request, audited, true);

    assertThat(audited.branch()).startsWith("audit-");
    assertThat(report.deliveries()).isEmpty();
    assertThat(report.note()).contains("audit branch (" + audited.branch() + ")");
    assertThat(server.count()).isZero();
    assertThat(outbox()).isEmpty();
  }

  @Test
  void aPublishedAuditRunsEffectIsSentOnceByTheNextRunDescribingMainsCommit() throws Exception {
    JobSpec job = job(5);
    RunRequest audit =
        RunRequest.of(config, job, DAY).withOptions(o -> o.publish(PublishMode.MANUAL));
    RunResult audited = SliceJob.run(audit);
    effects.deliver(audit, audited, true);
    // Main moves on (another day), so the publish is a cherry-pick: a snapshot of its own.
    SliceJob.run(RunRequest.of(config, ExampleTables.job(ExampleTables.FACT_JOB), "2026-10-04"));
    Catalog catalog = Catalogs.open(config);
    try {
      Publish.of(Catalogs.loadTable(catalog, "sales.fact_orders"), "sales.fact_orders")
          .run(audited.runId())
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
    long mainSnapshot = seed.table("sales.fact_orders").currentSnapshot().snapshotId();
    assertThat(mainSnapshot).isNotEqualTo(audited.outcome().snapshotId());

    RunRequest plain = RunRequest.of(config, job, DAY);
    RunResult rerun = SliceJob.run(plain);
    EffectsReport sent = effects.deliver(plain, rerun, true);
    RunResult again = SliceJob.run(plain);
    EffectsReport sentAgain = effects.deliver(plain, again, true);

    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(sent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(sentAgain.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
    JsonNode body = JSON.readTree(server.requests().get(0).body());
    assertThat(body.get("snapshot").asLong()).isEqualTo(mainSnapshot);
    assertThat(body.get("run_id").asText()).isEqualTo(audited.runId());
  }

  private List<OutboxEntry> outbox() {
    try (Outbox outbox =
        Outbox.open(OutboxLocation.of(config).orElseThrow(), DeliverySettings.system())) {
      return outbox.list(null, Set.of());
    }
  }

  private JobSpec job(int maxAttempts) {
    return ExampleTables.job(
        ExampleTables.FACT_JOB
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s"
                  headers: {Authorization: "Bearer ${env:BI_TOKEN}"}
                  body: '{"table": "${target}", "slice": "${slice}", "snapshot": ${snapshot_id}, "rows": ${rows}, "run_id": "${run_id}"}'
                max_attempts: %d
            """
                .formatted(server.url("/hook"), maxAttempts));
  }
}
