package dev.floe.catalog.effects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claims on a real SQLite outbox: one winner, and a lapsed claim can be taken over. */
class OutboxStoreTest {
  private static final Instant T0 = Instant.parse("2026-10-04T02:00:00Z");
  private static final OutboxKey KEY = new OutboxKey("k1", "notify_bi");

  @TempDir Path home;

  @Test
  void ofTwoConnectionsClaimingTheSameRowOnlyOneWins() {
    try (OutboxStore first = open();
        OutboxStore second = open()) {
      first.insertIfAbsent(entry());

      boolean a = first.claim(KEY, "a", T0, T0.plus(Outbox.LEASE));
      boolean b = second.claim(KEY, "b", T0, T0.plus(Outbox.LEASE));

      assertThat(a).isTrue();
      assertThat(b).isFalse();
      assertThat(first.find(KEY).orElseThrow().claimedBy()).isEqualTo("a");
    }
  }

  @Test
  void aClaimWhoseLeaseLapsedCanBeTakenOverAndTheOldClaimantCanNoLongerWrite() {
    try (OutboxStore store = open()) {
      store.insertIfAbsent(entry());
      store.claim(KEY, "dead", T0, T0.plus(Outbox.LEASE));
      Instant later = T0.plus(Outbox.LEASE).plusSeconds(1);

      assertThat(store.claim(KEY, "alive", T0.plusSeconds(60), T0.plusSeconds(360))).isFalse();
      assertThat(store.claim(KEY, "alive", later, later.plus(Outbox.LEASE))).isTrue();
      store.markSent(KEY, "alive", 200, later);

      assertThat(store.find(KEY).orElseThrow().status()).isEqualTo(EffectStatus.SENT);
      assertThat(store.claim(KEY, "third", later.plusSeconds(3600), later.plusSeconds(7200)))
          .isFalse();
    }
  }

  @Test
  void insertIfAbsentKeepsTheFirstRowAndListFilters() {
    try (OutboxStore store = open()) {
      assertThat(store.insertIfAbsent(entry())).isTrue();
      assertThat(store.insertIfAbsent(entry())).isFalse();

      assertThat(store.list("sales.fact_orders", Set.of(EffectStatus.PENDING))).hasSize(1);
      assertThat(store.list("sales.other", Set.of())).isEmpty();
      assertThat(store.list(null, Set.of(EffectStatus.SENT))).isEmpty();
      OutboxEntry row = store.find(KEY).orElseThrow();
      assertThat(row.headers()).containsEntry("Authorization", "Bearer ${env:BI_TOKEN}");
      assertThat(row.createdAt()).isEqualTo(T0);
      assertThat(row.snapshotId()).isNull();
    }
  }

  @Test
  void theOutboxIsNamedInMessagesWithoutItsPassword() {
    CatalogConfig config =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(OutboxLocation.URI_PROPERTY, "jdbc:mysql://floe:hunter2-x@127.0.0.1:1/outbox"),
            Map.of());
    CatalogConfig inQuery =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(
                OutboxLocation.URI_PROPERTY,
                "jdbc:postgresql://127.0.0.1:1/outbox?user=floe&password=hunter2-y"),
            Map.of());

    assertThat(OutboxLocation.of(config).orElseThrow().describe())
        .isEqualTo("jdbc:mysql://floe:******@127.0.0.1:1/outbox");
    assertThat(OutboxLocation.of(inQuery).orElseThrow().describe())
        .isEqualTo("jdbc:postgresql://127.0.0.1:1/outbox?...");
  }

  @Test
  void catalogsWithoutADatabaseHaveAnOutboxOnlyWhenFloeOutboxUriNamesOne() {
    CatalogConfig rest =
        CatalogConfigLoader.load(
            null, home, Map.of("type", "rest", "uri", "http://127.0.0.1:1/"), Map.of());
    CatalogConfig restWithOutbox =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(
                "type",
                "rest",
                "uri",
                "http://127.0.0.1:1/",
                OutboxLocation.URI_PROPERTY,
                "jdbc:sqlite:" + home.resolve("outbox.db")),
            Map.of());

    assertThat(OutboxLocation.of(rest)).isEmpty();
    assertThat(OutboxLocation.of(restWithOutbox).orElseThrow().describe())
        .isEqualTo("jdbc:sqlite:" + home.resolve("outbox.db"));
    assertThat(OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow().describe())
        .isEqualTo("jdbc:sqlite:" + home.toAbsolutePath().normalize().resolve("catalog.db"));
  }

  private OutboxStore open() {
    return OutboxStore.open(OutboxLocation.of(CatalogConfigLoader.embedded(home)).orElseThrow());
  }

  private static OutboxEntry entry() {
    return OutboxEntry.recorded(
        KEY,
        "run-1",
        "fact_orders_daily",
        "sales.fact_orders",
        "order_date=[2026-10-03,2026-10-04)",
        null,
        "http://127.0.0.1:1/hook",
        Map.of("Authorization", "Bearer ${env:BI_TOKEN}"),
        "{}",
        5,
        EffectStatus.PENDING,
        T0);
  }
}
