package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.it.BinFloe;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog is down when a run starts, tried as a new user would, through bin/floe: the run fails
 * within the bound (floe.connect-timeout, 30 s by default) with one line that names what it could
 * not reach, commits nothing, leaves no password anywhere, and the same command succeeds once the
 * catalog is back. The warehouses are on local disk: only the catalog goes away.
 */
class CatalogOutageITCase {
  /** The documented default bound (30 s) plus a JVM start, generously. */
  private static final double BOUND_SECONDS = 45;

  private static final String JOB_NAME = "fact_orders_daily";
  private static final String DATABASE = "floe_outage";

  private static PostgresServer postgres;
  private static RestCatalogServer rest;
  private static ClientCredentials credentials;

  @TempDir static Path work;

  @BeforeAll
  static void startServers() {
    postgres = PostgresServer.start();
    postgres.createDatabase(DATABASE);
    rest =
        RestCatalogServer.start(
            Map.of("warehouse", work.resolve("rest-warehouse").toUri().toString()), Map.of());
    credentials = ClientCredentials.install(null, postgres);
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(credentials, rest, postgres);
  }

  @Test
  void aRunStartedWhileTheCatalogDatabaseIsDownFailsInOneLineWithoutItsPassword() throws Exception {
    Path dir = jdbcProject("jdbc");
    // The password inside the uri, the way Floe's refusal of a password in floe.yaml suggests.
    String uriWithPassword =
        postgres.jdbcUrl(DATABASE) + "?user=floe&password=" + postgres.password();
    Map<String, String> env = Map.of("FLOE_CATALOG_URI", uriWithPassword);

    postgres.stop();
    BinFloe.Result failed;
    try {
      failed = timedRun(dir, env, "PostgreSQL (jdbc catalog)");
    } finally {
      postgres.startAgain();
    }

    assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
    assertThat(failed.err().lines())
        .containsExactly(
            "floe: Cannot run "
                + JOB_NAME
                + " for "
                + FactOrders.DAY
                + ": cannot reach the catalog database at "
                + postgres.jdbcUrl(DATABASE)
                + "?user=floe&password=******: connection refused");
    assertThat(failed.out() + failed.err() + logFile(dir)).doesNotContain(postgres.password());
    assertRerunCommits(dir, env);
    assertThat(logFile(dir)).doesNotContain(postgres.password());
  }

  @Test
  void aWrongDatabasePasswordFailsInOneLineNamingTheUserAndWhereThePasswordComesFrom()
      throws Exception {
    Path dir = jdbcProject("jdbc-wrong-password");
    String wrong = "wrong-" + postgres.password().substring(0, 4) + "-x";

    BinFloe.Result refused =
        BinFloe.run(dir, Map.of("FLOE_CATALOG_JDBC__PASSWORD", wrong), runArgs());

    assertThat(refused.exitCode()).as(refused.err()).isEqualTo(1);
    assertThat(refused.err().lines())
        .containsExactly(
            "floe: Cannot run "
                + JOB_NAME
                + " for "
                + FactOrders.DAY
                + ": the catalog database at "
                + postgres.jdbcUrl(DATABASE)
                + " refused user 'floe': FATAL: password authentication failed for user \"floe\";"
                + " the password comes from jdbc.password (FLOE_CATALOG_JDBC__PASSWORD)");
    assertThat(refused.out() + refused.err() + logFile(dir)).doesNotContain(wrong);
  }

  @Test
  void aRunStartedWhileTheRestCatalogIsDownFailsInOneLine() throws Exception {
    Path dir = Files.createDirectories(work.resolve("rest"));
    loadTables(dir, "rest", Map.of("uri", rest.uri()));

    rest.kill();
    BinFloe.Result failed;
    try {
      failed = timedRun(dir, Map.of(), "the REST catalog");
    } finally {
      rest.restart();
    }

    assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
    assertThat(failed.err().lines())
        .containsExactly(
            "floe: Cannot run "
                + JOB_NAME
                + " for "
                + FactOrders.DAY
                + ": cannot reach the REST catalog at "
                + rest.uri()
                + ": connection refused");
    assertRerunCommits(dir, Map.of());
  }

  /**
   * A project in {@code name} on the PostgreSQL catalog, its tables loaded ({@link #loadTables}).
   */
  private static Path jdbcProject(String name) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("uri", postgres.jdbcUrl(DATABASE));
    properties.put("jdbc.user", PostgresServer.USER);
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    loadTables(dir, "jdbc", properties);
    return dir;
  }

  /** floe.yaml for {@code type}, the example tables, and staging rows for the day. */
  private static void loadTables(Path dir, String type, Map<String, Object> properties)
      throws Exception {
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            dir.resolve("floe.yaml").toFile(),
            Map.of("catalog", Map.of("type", type, "properties", properties)));
    InProcessFloe floe = new InProcessFloe(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    Path examples = ServerPaths.repoRoot().resolve("examples");
    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
  }

  private static BinFloe.Result timedRun(Path dir, Map<String, String> env, String what)
      throws Exception {
    long started = System.nanoTime();
    BinFloe.Result result = BinFloe.run(dir, env, runArgs());
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "bin/floe run with %s down: exit %d after %.1f s%n%s%n",
        what, result.exitCode(), seconds, result.err());
    assertThat(seconds).as("seconds to fail with %s down", what).isLessThan(BOUND_SECONDS);
    return result;
  }

  /** Nothing was committed; the same command, the catalog back, commits the slice. */
  private static void assertRerunCommits(Path dir, Map<String, String> env) throws Exception {
    FactOrders before = FactOrders.read(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    assertThat(before.snapshotId()).as("a snapshot of the failed run").isEqualTo(-1);
    BinFloe.Result rerun = BinFloe.run(dir, env, runArgs());
    assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
    assertThat(rerun.out()).contains("committed");
    FactOrders after = FactOrders.read(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    assertThat(after.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
  }

  private static String[] runArgs() {
    return new String[] {
      "run",
      ServerPaths.repoRoot().resolve("examples/jobs/fact_orders_daily.yaml").toString(),
      "--slice",
      FactOrders.DAY.toString()
    };
  }

  /** bin/floe's log file in the default Floe home of {@code dir} ("" when nothing was logged). */
  static String logFile(Path dir) throws Exception {
    Path log = dir.resolve(".floe/logs/floe.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static void ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
  }
}
