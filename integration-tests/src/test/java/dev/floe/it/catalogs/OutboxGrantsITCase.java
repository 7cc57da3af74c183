package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.EffectStatus;
import dev.floe.catalog.effects.OutboxEntry;
import dev.floe.catalog.effects.OutboxKey;
import dev.floe.catalog.effects.OutboxLocation;
import dev.floe.catalog.effects.OutboxStore;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.it.servers.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The effect outbox on PostgreSQL for a user that may read and write its table but not create
 * tables (PostgreSQL 15 and later give no CREATE on schema public to other users by default).
 */
class OutboxGrantsITCase {
  private static final String APP_PASSWORD = "app-secret-1";

  private static PostgresServer postgres;
  @TempDir Path home;

  @BeforeAll
  static void startPostgres() {
    postgres = PostgresServer.start();
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void aUserWhoMayOnlyReadAndWriteTheOutboxTableUsesItOnceItsOwnerCreatedIt() throws Exception {
    String url = postgres.createDatabase("outbox_grants");
    try (Connection owner = postgres.connect("outbox_grants");
        Statement sql = owner.createStatement()) {
      sql.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
      sql.execute("CREATE ROLE app LOGIN PASSWORD '" + APP_PASSWORD + "'");
      sql.execute("GRANT USAGE ON SCHEMA public TO app");
    }
    OutboxLocation asApp = location(url, "app", APP_PASSWORD);

    // Before the table exists, the app user cannot create it: one line saying what to do, exit 2.
    assertThatThrownBy(() -> OutboxStore.open(asApp))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot create the table floe_effect_outbox in the effect outbox")
        .hasMessageContaining("permission denied")
        .hasMessageNotContaining(APP_PASSWORD);

    OutboxStore.open(location(url, PostgresServer.USER, postgres.password())).close();
    try (Connection owner = postgres.connect("outbox_grants");
        Statement sql = owner.createStatement()) {
      sql.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON floe_effect_outbox TO app");
    }

    OutboxKey key = new OutboxKey("k1", "notify_bi");
    try (OutboxStore store = OutboxStore.open(asApp)) {
      assertThat(store.insertIfAbsent(entry(key))).isTrue();
      assertThat(store.find(key)).hasValueSatisfying(e -> assertThat(e.runId()).isEqualTo("r1"));
    }
  }

  private OutboxLocation location(String url, String user, String password) {
    CatalogConfig catalog =
        CatalogConfigLoader.load(
            null,
            home,
            Map.of(
                "type",
                "rest",
                "uri",
                "http://127.0.0.1:1/",
                OutboxLocation.URI_PROPERTY,
                url,
                OutboxLocation.JDBC_PREFIX + "user",
                user,
                OutboxLocation.JDBC_PREFIX + "password",
                password),
            Map.of());
    return OutboxLocation.of(catalog).orElseThrow();
  }

  private static OutboxEntry entry(OutboxKey key) {
    return OutboxEntry.recorded(
        key,
        "r1",
        "fact_orders_daily",
        "sales.fact_orders",
        "order_date=[2026-10-03,2026-10-04)",
        null,
        "http://127.0.0.1:1/hook",
        Map.of(),
        "{}",
        3,
        EffectStatus.PENDING,
        Instant.parse("2026-10-04T02:00:00Z"));
  }
}
