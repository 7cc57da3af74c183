package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.PgAnswerDropProxy;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jdbc catalog on PostgreSQL whose connection drops right after the commit's UPDATE took effect
 * ({@link PgAnswerDropProxy}): Iceberg's connection pool runs the UPDATE again on a new connection,
 * it matches no row, and Iceberg, told the commit failed, retried the operation, failed it against
 * its own snapshot and deleted that snapshot's manifest list, leaving the head unreadable. The run
 * must instead be committed, once, and the table read back through Iceberg.
 */
class JdbcLostCommitAnswerITCase {
  private static final String DATABASE = "floe_lost_answer";

  private static PostgresServer postgres;
  private static PgAnswerDropProxy proxy;
  private static ClientCredentials credentials;

  @TempDir static Path work;

  @BeforeAll
  static void startServers() {
    postgres = PostgresServer.start();
    postgres.createDatabase(DATABASE);
    proxy = PgAnswerDropProxy.start(postgres.port());
    credentials = ClientCredentials.install(null, postgres);
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(credentials, proxy, postgres);
  }

  @Test
  void aRunWhoseCommitAnswerTheConnectionLostIsCommittedOnceAndTheTableStaysReadable()
      throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(
        "uri",
        "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + DATABASE + "?prepareThreshold=0");
    properties.put("jdbc.user", PostgresServer.USER);
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", work.resolve("warehouse").toUri().toString());
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            config.toFile(), Map.of("catalog", Map.of("type", "jdbc", "properties", properties)));
    Path home = work.resolve(".floe");
    InProcessFloe floe = new InProcessFloe(config, home);
    Path examples = ServerPaths.repoRoot().resolve("examples");
    String job = examples.resolve("jobs/fact_orders_daily.yaml").toString();
    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
    ok(floe.run("run", job, "--slice", FactOrders.DAY.toString()));
    FactOrders before = FactOrders.read(config, home);

    proxy.dropAnswerTo("UPDATE iceberg_tables");
    InProcessFloe.Result lost = floe.run("run", job, "--slice", FactOrders.OTHER_DAY.toString());

    assertThat(proxy.answersDropped()).isEqualTo(1);
    assertThat(lost.exitCode()).as(lost.both()).isZero();
    assertThat(lost.out()).contains("committed");
    FactOrders after = FactOrders.read(config, home);
    assertThat(after.orderIds(FactOrders.OTHER_DAY)).containsExactly(3L);
    assertThat(after.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(after.dayHash(FactOrders.DAY)).isEqualTo(before.dayHash(FactOrders.DAY));

    InProcessFloe.Result rerun = floe.run("run", job, "--slice", FactOrders.OTHER_DAY.toString());
    ok(rerun);
    assertThat(rerun.out()).contains("no-op");
    assertThat(FactOrders.read(config, home).snapshotId()).isEqualTo(after.snapshotId());
  }

  private static void ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
  }
}
