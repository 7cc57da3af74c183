package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.FreePort;
import dev.floe.it.servers.LoopbackOnly;
import dev.floe.it.servers.MotoServer;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.S3Server;
import dev.floe.it.servers.S3Servers;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The foundation's idempotency scenarios on every catalog Floe supports, against real servers
 * started here on 127.0.0.1: the embedded catalog on local disk and on S3, a JDBC catalog on
 * PostgreSQL and an Iceberg REST catalog, the last three with their warehouse on S3 (MinIO or
 * S3Proxy, the log says which), and AWS Glue with its warehouse on S3, both emulated by
 * moto_server. Per catalog: two runs of a slice give one commit and equal content hashes; a failure
 * injected before the commit leaves the table as it was; a slice whose source became empty is
 * emptied by its rerun, and the other slice is untouched; a rollback brings the emptied day back.
 */
class CatalogIdempotencyITCase {
  private static final String JOB = "jobs/fact_orders_daily.yaml";
  private static final LocalDate DAY = FactOrders.DAY;
  private static final LocalDate OTHER_DAY = FactOrders.OTHER_DAY;

  private static S3Server s3;
  private static PostgresServer postgres;
  private static RestCatalogServer rest;
  private static MotoServer moto;
  private static ClientCredentials credentials;

  @BeforeAll
  static void startServers() throws IOException {
    s3 = S3Servers.start();
    s3.createBucket(CatalogSetup.BUCKET);
    postgres = PostgresServer.start();
    Map<String, String> backend = new LinkedHashMap<>(s3.fileIoProperties());
    backend.put("warehouse", "s3://" + CatalogSetup.BUCKET + "/rest");
    rest =
        RestCatalogServer.start(
            backend,
            Map.of(
                "REST_BACKEND_S3__ACCESS_KEY_ID", s3.accessKeyId(),
                "REST_BACKEND_S3__SECRET_ACCESS_KEY", s3.secretAccessKey()));
    moto = MotoServer.start();
    moto.createBucket(CatalogSetup.BUCKET);
    // moto accepts any credentials: the Glue and S3 clients use the test JVM's (S3's) keys.
    credentials = ClientCredentials.install(s3, postgres);
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(credentials, rest, postgres, s3, moto);
  }

  @Test
  void everyServerListensOn127001Only() {
    List<Integer> ports =
        List.of(URI.create(s3.endpoint()).getPort(), postgres.port(), rest.port(), moto.port());
    System.out.println(
        "checking ports " + ports + " from " + LoopbackOnly.otherAddresses() + " (must refuse)");
    for (int port : ports) {
      assertThat(FreePort.isOpen(port)).as("127.0.0.1:%d", port).isTrue();
      assertThat(LoopbackOnly.exposures(port)).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(CatalogSetup.class)
  void runsAreIdempotentAtomicAndEmptySlicesClearOnEveryCatalog(
      CatalogSetup setup, @TempDir Path work) throws Exception {
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(config.toFile(), setup.catalog(s3, postgres, rest, moto));
    assertThat(Files.readString(config)).doesNotContain(s3.secretAccessKey(), postgres.password());
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));
    Path examples = ServerPaths.repoRoot().resolve("examples");
    String job = examples.resolve(JOB).toString();

    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    assertThat(ok(floe.run("run", job, "--slice", OTHER_DAY.toString())).out())
        .contains("committed");
    FactOrders loaded = FactOrders.read(config, work.resolve(".floe"));
    assertThat(loaded.orderIds(DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(loaded.orderIds(OTHER_DAY)).containsExactly(3L);
    if (setup.onS3()) {
      assertThat(loaded.location()).startsWith("s3://" + CatalogSetup.BUCKET + "/");
      assertThat(objectsUnder(setup == CatalogSetup.GLUE_MOTO ? moto : s3, loaded.location()))
          .isPositive();
    }

    // Run twice: the second run commits nothing and the content checksum is unchanged.
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("no-op");
    FactOrders rerun = FactOrders.read(config, work.resolve(".floe"));
    assertThat(rerun.snapshotId()).isEqualTo(loaded.snapshotId());
    assertThat(rerun.tableHash()).isEqualTo(loaded.tableHash());

    // A failure right before the commit, after new source rows were written: nothing changes.
    ok(
        floe.run(
            "sql",
            "INSERT OVERWRITE sales.staging_orders VALUES (1, 10, 50.00, DATE '2026-10-03'),"
                + " (2, 11, 20.00, DATE '2026-10-03'), (4, 13, 5.00, DATE '2026-10-03'),"
                + " (3, 12, 75.00, DATE '2026-10-04')"));
    InProcessFloe.Result failed =
        floe.run("run", job, "--slice", DAY.toString(), "--inject-failure", "BEFORE_COMMIT");
    assertThat(failed.exitCode()).as(failed.both()).isNotZero();
    FactOrders afterFailure = FactOrders.read(config, work.resolve(".floe"));
    assertThat(afterFailure.snapshotId()).isEqualTo(loaded.snapshotId());
    assertThat(afterFailure.tableHash()).isEqualTo(loaded.tableHash());

    // The retry commits the new content of that day only.
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    FactOrders retried = FactOrders.read(config, work.resolve(".floe"));
    assertThat(retried.orderIds(DAY)).containsExactlyInAnyOrder(1L, 2L, 4L);
    assertThat(retried.dayHash(OTHER_DAY)).isEqualTo(loaded.dayHash(OTHER_DAY));

    // The day's source becomes empty: the rerun empties the slice (an overwrite by filter, not
    // ReplacePartitions, which would leave the old rows), and a second rerun is a no-op.
    ok(
        floe.run(
            "sql",
            "INSERT OVERWRITE sales.staging_orders VALUES (3, 12, 75.00, DATE '2026-10-04')"));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    FactOrders emptied = FactOrders.read(config, work.resolve(".floe"));
    assertThat(emptied.orderIds(DAY)).isEmpty();
    assertThat(emptied.dayHash(OTHER_DAY)).isEqualTo(loaded.dayHash(OTHER_DAY));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("no-op");
    assertThat(FactOrders.read(config, work.resolve(".floe")).tableHash())
        .isEqualTo(emptied.tableHash());

    // A rollback to the retried run's snapshot brings the emptied day back, exactly.
    ok(
        floe.run(
            "rollback", FactOrders.TABLE, "--to-snapshot", Long.toString(retried.snapshotId())));
    FactOrders rolledBack = FactOrders.read(config, work.resolve(".floe"));
    assertThat(rolledBack.snapshotId()).isEqualTo(retried.snapshotId());
    assertThat(rolledBack.orderIds(DAY)).containsExactlyInAnyOrder(1L, 2L, 4L);
    assertThat(rolledBack.tableHash()).isEqualTo(retried.tableHash());
  }

  @Test
  void aNamespaceGlueRefusesIsARefusalInThePlanAndNothingIsCreated(@TempDir Path work)
      throws Exception {
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(config.toFile(), CatalogSetup.GLUE_MOTO.catalog(s3, postgres, rest, moto));
    Path specs = Files.createDirectories(work.resolve("specs"));
    Files.writeString(
        specs.resolve("t.yaml"),
        "table: Sales2.orders\nschema:\n  - {name: id, type: long, required: true}\n");
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));

    InProcessFloe.Result dryRun = floe.run("tables", "apply", specs.toString(), "--dry-run");
    InProcessFloe.Result apply = floe.run("tables", "apply", specs.toString());

    for (InProcessFloe.Result result : List.of(dryRun, apply)) {
      assertThat(result.exitCode()).as(result.both()).isEqualTo(2);
      assertThat(result.both())
          .contains("Cannot create Sales2.orders (" + specs.resolve("t.yaml"))
          .contains("the catalog refuses its namespace");
    }
    assertThat(floe.run("sql", "SHOW DATABASES").out()).doesNotContainIgnoringCase("sales2");
  }

  @Test
  void aTableNameGlueRefusesIsARefusalInThePlanAndLeavesNoNamespaceBehind(@TempDir Path work)
      throws Exception {
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(config.toFile(), CatalogSetup.GLUE_MOTO.catalog(s3, postgres, rest, moto));
    Path specs = Files.createDirectories(work.resolve("specs"));
    String columns = "schema:\n  - {name: id, type: long, required: true}\n";
    Files.writeString(specs.resolve("a.yaml"), "table: newns.good\n" + columns);
    Files.writeString(specs.resolve("b.yaml"), "table: newns.Bad\n" + columns);
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));

    InProcessFloe.Result dryRun = floe.run("tables", "apply", specs.toString(), "--dry-run");
    InProcessFloe.Result apply = floe.run("tables", "apply", specs.toString());

    for (InProcessFloe.Result result : List.of(dryRun, apply)) {
      assertThat(result.exitCode()).as(result.both()).isEqualTo(2);
      assertThat(result.both())
          .contains("Cannot create newns.Bad (" + specs.resolve("b.yaml"))
          .contains("the catalog refuses its name", "no table was changed");
    }
    assertThat(floe.run("sql", "SHOW DATABASES").out()).doesNotContain("newns");
  }

  @Test
  void orphanRemovalOfATableInsideAnotherTablesDataFolderIsRefusedAndKeepsItsFiles(
      @TempDir Path work) throws Exception {
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(config.toFile(), CatalogSetup.REST_S3.catalog(s3, postgres, rest, moto));
    Path specs = Files.createDirectories(work.resolve("specs"));
    Files.writeString(
        specs.resolve("outer.yaml"),
        "table: nest.cat\nschema:\n  - {name: id, type: long}\n  - {name: d, type: date}\n"
            + "partition: [d]\n");
    Files.writeString(
        specs.resolve("inner.yaml"), "table: nest.cat.data\nschema:\n  - {name: id, type: long}\n");
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));
    ok(floe.run("tables", "apply", specs.toString()));
    ok(
        floe.run(
            "sql", "INSERT INTO nest.cat VALUES (1, DATE '2026-03-01'), (2, DATE '2026-03-02')"));

    for (String mode : List.of("--dry-run", "--json")) {
      InProcessFloe.Result orphans =
          floe.run("maintain", "nest.cat.data", "--orphans", "--orphan-min-age", "PT1H", mode);
      assertThat(orphans.exitCode()).as(orphans.both()).isEqualTo(2);
      assertThat(orphans.err())
          .contains("Cannot remove orphan files of nest.cat.data: its location")
          .contains("lies inside the data folder of another table at s3://");
    }
    assertThat(floe.run("sql", "SELECT count(*) FROM nest.cat").out()).contains("2");
  }

  private static InProcessFloe.Result ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
    return result;
  }

  private static int objectsUnder(S3Server server, String location) {
    String path = location.substring(("s3://" + CatalogSetup.BUCKET + "/").length());
    try (S3Client client = server.client()) {
      return client
          .listObjectsV2(request -> request.bucket(CatalogSetup.BUCKET).prefix(path + "/data/"))
          .keyCount();
    }
  }
}
