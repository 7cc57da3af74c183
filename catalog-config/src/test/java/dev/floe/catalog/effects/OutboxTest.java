package dev.floe.catalog.effects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The outbox against a real SQLite database and a real HTTP server; no real sleeping. */
class OutboxTest {
  private static final Instant T0 = Instant.parse("2026-10-04T02:00:00Z");

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private final List<Duration> slept = new ArrayList<>();
  private final DeliverySettings settings =
      DeliverySettings.of(
          Clock.fixed(T0, ZoneOffset.UTC), slept::add, Map.of("BI_TOKEN", "tok-123"));

  @Test
  void aServerFailingTwiceThenAnsweringGetsThreePostsAndTheEffectEndsSent() {
    server.failNext(2, 503);
    try (Outbox outbox = open()) {
      Delivery delivery = outbox.deliver(entry("k1", 5), Outbox.Recording.COMMIT);

      assertThat(delivery.outcome()).isEqualTo(Delivery.Outcome.SENT);
      assertThat(delivery.attempts()).isEqualTo(3);
      assertThat(server.count()).isEqualTo(3);
      assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
      OutboxEntry row = outbox.list(null, Set.of()).get(0);
      assertThat(row.status()).isEqualTo(EffectStatus.SENT);
      assertThat(row.attempts()).isEqualTo(3);
      assertThat(row.httpStatus()).isEqualTo(200);
      assertThat(row.lastError()).isNull();
      assertThat(row.sentAt()).isEqualTo(T0);
    }
  }

  @Test
  void aSentEffectIsNeverSentAgainForTheSameKey() {
    try (Outbox outbox = open()) {
      outbox.deliver(entry("k1", 5), Outbox.Recording.COMMIT);
      Delivery again = outbox.deliver(entry("k1", 5), Outbox.Recording.COMMIT);
      Delivery recovered = outbox.deliver(entry("k1", 5), Outbox.Recording.RECOVERY);

      assertThat(again.outcome()).isEqualTo(Delivery.Outcome.ALREADY_SENT);
      assertThat(recovered.outcome()).isEqualTo(Delivery.Outcome.ALREADY_SENT);
      assertThat(server.count()).isEqualTo(1);
    }
  }

  @Test
  void afterMaxAttemptsTheEffectIsFailedAndOnlyARetrySendsItAgain() {
    server.failNext(3, 500);
    try (Outbox outbox = open()) {
      Delivery failed = outbox.deliver(entry("k1", 3), Outbox.Recording.COMMIT);
      Delivery recovery = outbox.deliver(entry("k1", 3), Outbox.Recording.RECOVERY);

      assertThat(failed.outcome()).isEqualTo(Delivery.Outcome.FAILED);
      assertThat(failed.error()).isEqualTo("HTTP 500");
      assertThat(recovery.outcome()).isEqualTo(Delivery.Outcome.FAILED_EARLIER);
      assertThat(server.count()).isEqualTo(3);
      assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
      assertThat(outbox.list(null, Set.of(EffectStatus.FAILED))).hasSize(1);

      Delivery retried = outbox.retry(new OutboxKey("k1", "notify_bi"));

      assertThat(retried.outcome()).isEqualTo(Delivery.Outcome.SENT);
      assertThat(server.count()).isEqualTo(4);
      assertThat(outbox.list(null, Set.of()).get(0).attempts()).isEqualTo(4);
    }
  }

  @Test
  void aNewCommitOfTheSameRunKeyReArmsAFailedEffectWithItsOwnSnapshot() throws Exception {
    server.failNext(1, 500);
    try (Outbox outbox = open()) {
      outbox.deliver(entry("k1", 1), Outbox.Recording.COMMIT);
      OutboxEntry newer = entry("k1", 1, 43L);

      Delivery delivery = outbox.deliver(newer, Outbox.Recording.COMMIT);

      assertThat(delivery.outcome()).isEqualTo(Delivery.Outcome.SENT);
      assertThat(server.requests()).hasSize(2);
      assertThat(
              new ObjectMapper().readTree(server.requests().get(1).body()).get("snapshot").asLong())
          .isEqualTo(43L);
    }
  }

  @Test
  void theRequestCarriesTheResolvedHeaderAnIdempotencyKeyAndJson() {
    try (Outbox outbox = open()) {
      outbox.deliver(entry("k1", 1), Outbox.Recording.COMMIT);
    }

    WebhookServer.Request request = server.requests().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/hook");
    assertThat(request.headers())
        .containsEntry("authorization", "Bearer tok-123")
        .containsEntry("idempotency-key", "k1/notify_bi")
        .containsEntry("content-type", "application/json");
    assertThat(request.body()).isEqualTo("{\"snapshot\": 42}");
  }

  @Test
  void aMissingEnvironmentVariableFailsTheEffectAtOnceNamingOnlyTheVariable() {
    DeliverySettings noToken = DeliverySettings.of(settings.clock(), slept::add, Map.of());
    try (Outbox outbox = Outbox.open(location(), noToken)) {
      Delivery delivery = outbox.deliver(entry("k1", 5), Outbox.Recording.COMMIT);

      assertThat(delivery.outcome()).isEqualTo(Delivery.Outcome.FAILED);
      assertThat(delivery.error())
          .isEqualTo(
              "Cannot send effect notify_bi header Authorization: the environment variable"
                  + " BI_TOKEN is not set");
      assertThat(server.count()).isZero();
      assertThat(slept).isEmpty();
    }
  }

  @Test
  void aHeaderValueHttpRefusesFailsTheEffectAtOnceNamingHeaderAndVariableButNoValue() {
    // A secret file's trailing newline, a header injection, and a character java.net.http refuses
    // (above U+00FF): the client's own exception would quote the value.
    List<String> tokens =
        List.of("tok-secret\n", "tok-secret\r\nX-Injected: 1", "tok-secret\u20ac");
    for (int i = 0; i < tokens.size(); i++) {
      DeliverySettings bad =
          DeliverySettings.of(settings.clock(), slept::add, Map.of("BI_TOKEN", tokens.get(i)));
      try (Outbox outbox = Outbox.open(location(), bad)) {
        OutboxEntry entry = entry("k" + i, 5);
        Delivery delivery = outbox.deliver(entry, Outbox.Recording.COMMIT);

        assertThat(delivery.outcome()).isEqualTo(Delivery.Outcome.FAILED);
        assertThat(delivery.error())
            .startsWith("Cannot send effect notify_bi: header Authorization ")
            .contains("BI_TOKEN")
            .doesNotContain("tok-secret");
        OutboxEntry row =
            outbox.list(null, Set.of()).stream()
                .filter(e -> e.key().equals(entry.key()))
                .findFirst()
                .orElseThrow();
        assertThat(row.status()).isEqualTo(EffectStatus.FAILED);
        assertThat(row.leaseUntil()).as("no claim left behind").isNull();
        assertThat(row.lastError()).isEqualTo(delivery.error());
      }
    }
    assertThat(server.count()).isZero();
    assertThat(slept).isEmpty();
  }

  @Test
  void anIoErrorMessageHasEveryReferencedEnvironmentValueBlanked() {
    OutboxEntry entry = entry("k1", 1);
    WebhookPost post =
        new WebhookPost(Duration.ofSeconds(1), Map.of("BI_TOKEN", "tok-123\n", "OTHER", "x"));

    List<String> secrets = post.secrets(entry);

    assertThat(secrets).containsExactly("tok-123\n", "tok-123");
    assertThat(WebhookPost.redact("refused: Bearer tok-123 at tok-123\n", secrets))
        .isEqualTo("refused: Bearer *** at ***");
  }

  @Test
  void aSkippedEffectIsNotSentByRecoveryButIsReArmedByANewCommit() {
    try (Outbox outbox = open()) {
      Delivery skipped = outbox.skip(entry("k1", 1, 42L, EffectStatus.SKIPPED));
      Delivery recovery = outbox.deliver(entry("k1", 1), Outbox.Recording.RECOVERY);

      assertThat(skipped.outcome()).isEqualTo(Delivery.Outcome.SKIPPED);
      assertThat(recovery.outcome()).isEqualTo(Delivery.Outcome.SKIPPED);
      assertThat(server.count()).isZero();

      assertThat(outbox.deliver(entry("k1", 1), Outbox.Recording.COMMIT).outcome())
          .isEqualTo(Delivery.Outcome.SENT);
      assertThat(server.count()).isEqualTo(1);
    }
  }

  @Test
  void aPendingRowLeftByADeadProcessIsSentByRecoveryOnce() {
    try (OutboxStore store = OutboxStore.open(location())) {
      store.insertIfAbsent(entry("k1", 5)); // the process died right after recording
    }
    try (Outbox outbox = open()) {
      assertThat(outbox.deliver(entry("k1", 5), Outbox.Recording.RECOVERY).outcome())
          .isEqualTo(Delivery.Outcome.SENT);
      assertThat(outbox.deliver(entry("k1", 5), Outbox.Recording.RECOVERY).outcome())
          .isEqualTo(Delivery.Outcome.ALREADY_SENT);
    }
    assertThat(server.count()).isEqualTo(1);
  }

  private Outbox open() {
    return Outbox.open(location(), settings);
  }

  private OutboxLocation location() {
    return OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow();
  }

  private OutboxEntry entry(String runKey, int maxAttempts) {
    return entry(runKey, maxAttempts, 42L);
  }

  private OutboxEntry entry(String runKey, int maxAttempts, Long snapshot) {
    return entry(runKey, maxAttempts, snapshot, EffectStatus.PENDING);
  }

  private OutboxEntry entry(String runKey, int maxAttempts, Long snapshot, EffectStatus status) {
    return OutboxEntry.recorded(
        new OutboxKey(runKey, "notify_bi"),
        "run-1",
        "fact_orders_daily",
        "sales.fact_orders",
        "order_date=[2026-10-03,2026-10-04)",
        snapshot,
        server.url("/hook"),
        Map.of("Authorization", "Bearer ${env:BI_TOKEN}"),
        "{\"snapshot\": " + snapshot + "}",
        maxAttempts,
        status,
        T0);
  }
}
