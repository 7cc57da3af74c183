package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxKey;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.RunEffects;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge keeps one run key for every batch (its scope is the whole table): each new batch it
 * commits is news and sends its effect once; a rerun of a batch already merged sends nothing.
 */
class MergeEffectsITCase {
  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private CatalogConfig config;
  private ExampleTables seed;
  private RunEffects effects;
  private JobSpec job;

  @BeforeEach
  void theSeedsMergeWithAWebhook() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    seed = new ExampleTables(config).createCustomers();
    effects =
        new RunEffects(
            DeliverySettings.of(
                Clock.fixed(Instant.parse("2026-10-04T02:00:00Z"), ZoneOffset.UTC),
                d -> {},
                Map.of()));
    job =
        ExampleTables.job(
            ExampleTables.MERGE_JOB
                + """
                effects:
                  - name: notify_bi
                    webhook:
                      url: "%s"
                      body: '{"rows": ${rows}}'
                """
                    .formatted(server.url("/hook")));
  }

  @Test
  void eachNewBatchIsSentOnceAndAnUnchangedRerunIsNot() throws Exception {
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    var firstSent = effects.deliver(request, first, true);
    RunResult rerun = SliceJob.run(request);
    var rerunSent = effects.deliver(request, rerun, true);
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunResult second = SliceJob.run(request);
    var secondSent = effects.deliver(request, second, true);

    assertThat(first.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(firstSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerunSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(second.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(second.runKey()).isEqualTo(first.runKey());
    assertThat(secondSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(server.count()).isEqualTo(2);
  }

  @Test
  void aNoOpRerunAfterAnUpgradeFindsTheEffectAnOlderFloeFiledUnderThePlainRunKey()
      throws Exception {
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    // What an older Floe did: the commit's effect filed and sent under the plain run key.
    effects.deliverOnce(
        config,
        first.runKey(),
        job.effects(),
        Map.of("snapshot_id", first.outcome().snapshotId(), "rows", first.outcome().rows()),
        "sales.dim_customer",
        "*",
        false);
    assertThat(server.count()).isEqualTo(1);

    RunResult rerun = SliceJob.run(request);
    var rerunSent = effects.deliver(request, rerun, true);

    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerunSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
  }

  @Test
  void aNoOpRerunAfterAnUpgradeFindsTheEffectAnOlderFloeFiledUnderTheRunKeyAndContentHash()
      throws Exception {
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    String hash = first.outcome().contentHash();
    // What the Floe before it did: filed under the run key and the batch's content hash.
    effects.deliverOnce(
        config,
        first.runKey() + "@" + hash.substring(0, 16),
        job.effects(),
        Map.of("snapshot_id", first.outcome().snapshotId(), "rows", first.outcome().rows()),
        "sales.dim_customer",
        "*",
        false);
    assertThat(server.count()).isEqualTo(1);

    RunResult rerun = SliceJob.run(request);
    var rerunSent = effects.deliver(request, rerun, true);

    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerunSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(1);
  }

  @Test
  void aSwapBackToRowsAnEarlierBatchHadIsNewsAndSentAgain() throws Exception {
    RunRequest request = RunRequest.of(config, swapJob(), null);
    RunRequest dryRun = request.withOptions(o -> o.dryRun(true));
    var wouldSend = effects.deliver(dryRun, SliceJob.run(dryRun), true);
    RunResult a = SliceJob.run(request);
    var aSent = effects.deliver(request, a, true);
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunResult b = SliceJob.run(request);
    var bSent = effects.deliver(request, b, true);
    seed.stagingCustomers(ExampleTables.CUSTOMER_SEED_ROWS);
    RunResult aAgain = SliceJob.run(request);
    var aAgainSent = effects.deliver(request, aAgain, true);
    RunResult rerun = SliceJob.run(request);
    var rerunSent = effects.deliver(request, rerun, true);

    assertThat(List.of(a, b, aAgain))
        .extracting(r -> r.outcome().status())
        .containsOnly(CommitOutcome.Status.COMMITTED);
    assertThat(aAgain.outcome().contentHash()).isEqualTo(a.outcome().contentHash());
    // A dry run has no commit yet: its key says where the commit's id goes.
    assertThat(wouldSend.deliveries())
        .extracting(d -> d.key().runKey())
        .containsExactly(a.runKey() + "@<its snapshot id>");
    assertThat(List.of(aSent, bSent, aAgainSent))
        .allSatisfy(
            sent ->
                assertThat(sent.deliveries())
                    .extracting(Delivery::outcome)
                    .containsExactly(Delivery.Outcome.SENT));
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerunSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.requests())
        .extracting(r -> r.headers().get("idempotency-key"))
        .containsExactly(
            a.runKey() + "@" + a.outcome().snapshotId() + "/notify_bi",
            a.runKey() + "@" + b.outcome().snapshotId() + "/notify_bi",
            a.runKey() + "@" + aAgain.outcome().snapshotId() + "/notify_bi");
  }

  @Test
  void aBatchWithTheRowsOfOneAnOlderFloeFiledIsNotTakenForFiledWhenItsProcessStopped()
      throws Exception {
    RunRequest request = RunRequest.of(config, swapJob(), null);
    RunResult a = SliceJob.run(request);
    // What the Floe before filed for it: the run key and the batch's content hash.
    effects.deliverOnce(
        config,
        a.runKey() + "@" + a.outcome().contentHash().substring(0, 16),
        request.job().effects(),
        Map.of("snapshot_id", a.outcome().snapshotId(), "rows", a.outcome().rows()),
        "sales.dim_customer",
        "*",
        false);
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    effects.deliver(request, SliceJob.run(request), true);
    seed.stagingCustomers(ExampleTables.CUSTOMER_SEED_ROWS);
    RunResult aAgain = SliceJob.run(request); // committed; its process stops before sending
    seed.stagingCustomers("(13, 'free', TIMESTAMP '2026-10-04 09:00:00')");
    RunResult d = SliceJob.run(request);
    effects.deliver(request, d, true);

    assertThat(aAgain.outcome().contentHash()).isEqualTo(a.outcome().contentHash());
    assertThat(server.requests())
        .extracting(r -> r.headers().get("idempotency-key"))
        .endsWith(
            a.runKey() + "@" + aAgain.outcome().snapshotId() + "/notify_bi",
            a.runKey() + "@" + d.outcome().snapshotId() + "/notify_bi")
        .hasSize(4);
  }

  @Test
  void aPendingEffectAnOlderFloeFiledUnderTheContentHashIsSentByTheNextBatch() throws Exception {
    RunRequest request = RunRequest.of(config, swapJob(), null);
    RunResult a = SliceJob.run(request);
    String olderKey = a.runKey() + "@" + a.outcome().contentHash().substring(0, 16);
    // An older Floe filed it and stopped before sending.
    try (OutboxStore store = OutboxStore.open(OutboxLocation.of(config).orElseThrow())) {
      store.insertIfAbsent(
          OutboxEntry.recorded(
              new OutboxKey(olderKey, "notify_bi"),
              a.runId(),
              "dim_customer_swap",
              "sales.dim_customer",
              "*",
              a.outcome().snapshotId(),
              server.url("/hook"),
              Map.of(),
              "{\"rows\": %d}".formatted(a.outcome().rows()),
              3,
              EffectStatus.PENDING,
              Instant.parse("2026-10-04T01:00:00Z")));
    }
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunResult b = SliceJob.run(request);
    effects.deliver(request, b, true);

    assertThat(server.requests())
        .extracting(r -> r.headers().get("idempotency-key"))
        .containsExactly(
            olderKey + "/notify_bi", a.runKey() + "@" + b.outcome().snapshotId() + "/notify_bi");
  }

  @Test
  void aBatchWhoseProcessStoppedBeforeSendingIsSentByTheNextBatchThatCommits() throws Exception {
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    effects.deliver(request, first, true);
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunResult stopped = SliceJob.run(request); // committed; its process stops before sending
    seed.stagingCustomers("(13, 'free', TIMESTAMP '2026-10-04 09:00:00')");
    RunResult third = SliceJob.run(request);
    var thirdSent = effects.deliver(request, third, true);
    RunResult rerun = SliceJob.run(request);
    var rerunSent = effects.deliver(request, rerun, true);

    assertThat(stopped.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(third.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(thirdSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT, Delivery.Outcome.SENT);
    assertThat(server.requests())
        .extracting(WebhookServer.Request::body)
        .containsExactly(
            "{\"rows\": %d}".formatted(first.outcome().rows()),
            "{\"rows\": %d}".formatted(stopped.outcome().rows()),
            "{\"rows\": %d}".formatted(third.outcome().rows()));
    assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
    assertThat(rerunSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.ALREADY_SENT);
    assertThat(server.count()).isEqualTo(3);
  }

  @Test
  void batchesAnOutboxNeverHeardOfAreNotSentSinceAnotherOutboxMayHaveSentThem() throws Exception {
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    effects.deliver(request, first, true);
    // The catalog's outbox moves to a new database: it has never heard of the first batch.
    Map<String, String> properties = new HashMap<>(config.properties());
    properties.put(
        OutboxLocation.URI_PROPERTY,
        "jdbc:sqlite:" + home.resolve("new-outbox.db").toAbsolutePath());
    CatalogConfig moved = new CatalogConfig(config.name(), config.type(), properties);
    RunRequest afterMove = RunRequest.of(moved, job, null);
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunResult second = SliceJob.run(afterMove);
    var secondSent = effects.deliver(afterMove, second, true);

    assertThat(secondSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(server.count()).isEqualTo(2);
  }

  private JobSpec swapJob() {
    return ExampleTables.job(
        """
        job: dim_customer_swap
        target: sales.dim_customer
        mode: swap
        query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
        effects:
          - name: notify_bi
            webhook:
              url: "%s"
              body: '{"rows": ${rows}}'
        """
            .formatted(server.url("/hook")));
  }

  @Test
  void batchesOfTheSameJobBeforeItHadEffectsHaveAnotherRunKeyAndAreNotSent() throws Exception {
    JobSpec withoutEffects = ExampleTables.job(ExampleTables.MERGE_JOB);
    RunResult before = SliceJob.run(RunRequest.of(config, withoutEffects, null));
    seed.stagingCustomers("(12, 'gold', TIMESTAMP '2026-10-04 08:00:00')");
    RunRequest request = RunRequest.of(config, job, null);
    RunResult first = SliceJob.run(request);
    var firstSent = effects.deliver(request, first, true);

    assertThat(before.runKey()).isNotEqualTo(first.runKey());
    assertThat(firstSent.deliveries())
        .extracting(Delivery::outcome)
        .containsExactly(Delivery.Outcome.SENT);
    assertThat(server.count()).isEqualTo(1);
  }
}
