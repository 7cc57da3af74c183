package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.S3Server;
import dev.floe.it.servers.S3Servers;
import dev.floe.it.servers.ServerPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The foundation's idempotency scenarios on every catalog Floe supports, against real servers
 * started here on 127.0.0.1: the embedded catalog on local disk and on S3, a JDBC catalog on
 * PostgreSQL and an Iceberg REST catalog, the last three with their warehouse on S3 (MinIO or
 * S3Proxy, the log says which). Per catalog: two runs of a slice give one commit and equal content
 * hashes; a failure injected before the commit leaves the table as it was; a slice whose source
 * became empty is emptied by its rerun, and the other slice is untouched.
 */
class CatalogIdempotencyITCase {
  private static final String JOB = "jobs/fact_orders_daily.yaml";
  private static final String FACT = "sales.fact_orders";
  private static final LocalDate DAY = LocalDate.parse("2026-10-03");
  private static final LocalDate OTHER_DAY = LocalDate.parse("2026-10-04");

  private static S3Server s3;
  private static PostgresServer postgres;
  private static RestCatalogServer rest;
  private static Path pgpass;

  @BeforeAll
  static void startServers() throws IOException {
    s3 = S3Servers.start();
    s3.createBucket(CatalogSetup.BUCKET);
    postgres = PostgresServer.start();
    Map<String, String> backend = new java.util.LinkedHashMap<>(s3.fileIoProperties());
    backend.put("warehouse", "s3://" + CatalogSetup.BUCKET + "/rest");
    rest =
        RestCatalogServer.start(
            backend,
            Map.of(
                "REST_BACKEND_S3__ACCESS_KEY_ID", s3.accessKeyId(),
                "REST_BACKEND_S3__SECRET_ACCESS_KEY", s3.secretAccessKey()));
    // Credentials the way the AWS SDK and the PostgreSQL driver find them without Floe's help:
    // the SDK's system properties (its chain also reads AWS_ACCESS_KEY_ID and ~/.aws/credentials)
    // and a pgpass file. Nothing secret is in floe.yaml; bin/floe tests cover FLOE_CATALOG_*.
    System.setProperty("aws.accessKeyId", s3.accessKeyId());
    System.setProperty("aws.secretAccessKey", s3.secretAccessKey());
    System.setProperty("aws.region", S3Server.REGION);
    pgpass = ServerPaths.workDir("pgpass").resolve("pgpass");
    Files.writeString(
        pgpass,
        "127.0.0.1:"
            + postgres.port()
            + ":*:"
            + PostgresServer.USER
            + ":"
            + postgres.password()
            + "\n");
    System.setProperty("org.postgresql.pgpassfile", pgpass.toString());
  }

  @AfterAll
  static void stopServers() {
    for (AutoCloseable server : new AutoCloseable[] {rest, postgres, s3}) {
      try {
        if (server != null) {
          server.close();
        }
      } catch (Exception e) {
        System.out.println("Cannot stop " + server + ": " + e);
      }
    }
    for (String property :
        List.of(
            "aws.accessKeyId", "aws.secretAccessKey", "aws.region", "org.postgresql.pgpassfile")) {
      System.clearProperty(property);
    }
  }

  @ParameterizedTest
  @EnumSource(CatalogSetup.class)
  void runsAreIdempotentAtomicAndEmptySlicesClearOnEveryCatalog(
      CatalogSetup setup, @TempDir Path work) throws Exception {
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(config.toFile(), setup.catalog(s3, postgres, rest));
    assertThat(Files.readString(config)).doesNotContain(s3.secretAccessKey(), postgres.password());
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));
    Path examples = ServerPaths.repoRoot().resolve("examples");
    String job = examples.resolve(JOB).toString();

    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    assertThat(ok(floe.run("run", job, "--slice", OTHER_DAY.toString())).out())
        .contains("committed");
    Observed loaded = observe(config, work);
    assertThat(loaded.orderIds(DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(loaded.orderIds(OTHER_DAY)).containsExactly(3L);
    if (setup.onS3()) {
      assertThat(loaded.location()).startsWith("s3://" + CatalogSetup.BUCKET + "/");
      assertThat(objectsUnder(loaded.location())).isPositive();
    }

    // Run twice: the second run commits nothing and the content checksum is unchanged.
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("no-op");
    Observed rerun = observe(config, work);
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
    Observed afterFailure = observe(config, work);
    assertThat(afterFailure.snapshotId()).isEqualTo(loaded.snapshotId());
    assertThat(afterFailure.tableHash()).isEqualTo(loaded.tableHash());

    // The retry commits the new content of that day only.
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    Observed retried = observe(config, work);
    assertThat(retried.orderIds(DAY)).containsExactlyInAnyOrder(1L, 2L, 4L);
    assertThat(retried.dayHash(OTHER_DAY)).isEqualTo(loaded.dayHash(OTHER_DAY));

    // The day's source becomes empty: the rerun empties the slice (an overwrite by filter, not
    // ReplacePartitions, which would leave the old rows), and a second rerun is a no-op.
    ok(
        floe.run(
            "sql",
            "INSERT OVERWRITE sales.staging_orders VALUES (3, 12, 75.00, DATE '2026-10-04')"));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("committed");
    Observed emptied = observe(config, work);
    assertThat(emptied.orderIds(DAY)).isEmpty();
    assertThat(emptied.dayHash(OTHER_DAY)).isEqualTo(loaded.dayHash(OTHER_DAY));
    assertThat(ok(floe.run("run", job, "--slice", DAY.toString())).out()).contains("no-op");
    assertThat(observe(config, work).tableHash()).isEqualTo(emptied.tableHash());
  }

  private static InProcessFloe.Result ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
    return result;
  }

  /** What the catalog holds now, read through Iceberg itself (not through Floe's lineage). */
  private record Observed(
      String location,
      long snapshotId,
      ContentHash tableHash,
      Map<LocalDate, ContentHash> dayHashes,
      Map<LocalDate, List<Long>> orderIdsByDay) {
    ContentHash dayHash(LocalDate day) {
      return dayHashes.get(day);
    }

    List<Long> orderIds(LocalDate day) {
      return orderIdsByDay.get(day);
    }
  }

  private static Observed observe(Path configFile, Path work) throws IOException {
    CatalogConfig config =
        CatalogConfigLoader.load(configFile, work.resolve(".floe"), Map.of(), Map.of());
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, FACT);
      Map<LocalDate, ContentHash> hashes = new java.util.HashMap<>();
      Map<LocalDate, List<Long>> ids = new java.util.HashMap<>();
      for (LocalDate day : List.of(DAY, OTHER_DAY)) {
        Expression filter = Expressions.equal("order_date", day.toString());
        hashes.put(day, TableContent.hash(table, filter));
        List<Long> orderIds = new ArrayList<>();
        try (CloseableIterable<Record> rows = IcebergGenerics.read(table).where(filter).build()) {
          rows.forEach(row -> orderIds.add((Long) row.getField("order_id")));
        }
        ids.put(day, orderIds);
      }
      return new Observed(
          table.location(),
          table.currentSnapshot().snapshotId(),
          TableContent.hash(table),
          hashes,
          ids);
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static int objectsUnder(String location) {
    String path = location.substring(("s3://" + CatalogSetup.BUCKET + "/").length());
    try (S3Client client = s3.client()) {
      return client
          .listObjectsV2(request -> request.bucket(CatalogSetup.BUCKET).prefix(path + "/data/"))
          .keyCount();
    }
  }
}
