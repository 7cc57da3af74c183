package dev.floe.it.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.it.BinFloe;
import dev.floe.it.catalogs.FactOrders;
import dev.floe.it.catalogs.InProcessFloe;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.S3ProxyServer;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3 goes away while a slice is being written: the run fails with a sentence (no stack trace, no
 * hang), the table is exactly as before, and the same command succeeds once S3 is back. Runs
 * through bin/floe with the S3 keys in FLOE_CATALOG_* variables, and the final rerun with an AWS
 * credentials file instead. Uses S3Proxy even when Docker runs: the test kills the server by pid
 * the moment the first data file of the run lands, which needs the server's files on this disk.
 */
class S3OutageITCase {
  private static final int ROWS = 60_000;

  private static S3ProxyServer s3;
  private static ClientCredentials credentials;

  @TempDir static Path work;

  private static Path config;
  private static InProcessFloe floe;

  @BeforeAll
  static void startS3AndLoadADay() throws Exception {
    s3 = S3ProxyServer.start();
    System.out.println("S3 server: " + s3.description() + " at " + s3.endpoint());
    s3.createBucket("warehouse");
    credentials = ClientCredentials.install(s3, null);
    config = writeConfig();
    // The set-up runs in this JVM (a bin/floe JVM per step would add half a minute); the runs
    // that lose S3 and their reruns go through bin/floe.
    floe = new InProcessFloe(config, work.resolve(".floe"));
    Path examples = ServerPaths.repoRoot().resolve("examples");
    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
    ok(floe.run("run", job(), "--slice", FactOrders.DAY.toString()));
  }

  @AfterAll
  static void stopS3() {
    Servers.closeAll(credentials, s3);
  }

  @Test
  void aRunWhoseS3DiesMidWriteChangesNothingAndTheRerunAfterRestartCommits() throws Exception {
    String job = job();
    Map<String, String> env = s3.credentialEnvironment();
    FactOrders before = FactOrders.read(config, work.resolve(".floe"));
    assertThat(before.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
    prepareALongWrite(config, floe);

    long filesBefore = dataFiles();
    CompletableFuture<BinFloe.Result> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return BinFloe.run(
                    work,
                    env,
                    "run",
                    job,
                    "--slice",
                    FactOrders.DAY.toString(),
                    "--parallelism",
                    "1");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    // Pull the plug the moment the run's first data file is in S3: more files, the manifests and
    // the commit are still to come.
    while (dataFiles() == filesBefore && !run.isDone()) {
      Thread.sleep(5);
    }
    assertThat(run.isDone()).as("the run ended before writing a data file").isFalse();
    s3.kill();
    long killedAt = System.nanoTime();
    BinFloe.Result failed = run.get(5, TimeUnit.MINUTES);
    System.out.printf(
        "bin/floe exited %d, %.1f s after S3 was killed:%n%s%n",
        failed.exitCode(), (System.nanoTime() - killedAt) / 1e9, failed.err());

    assertThat(failed.exitCode()).as(failed.err()).isNotZero();
    // One line that names what could not be reached, and no stack trace.
    assertThat(failed.err())
        .startsWith("floe: Cannot run fact_orders_daily for 2026-10-03: ")
        .contains(URI.create(s3.endpoint()).getAuthority())
        .doesNotContain("\tat ");
    assertThat(failed.out() + failed.err()).doesNotContain(s3.secretAccessKey());

    s3.restart();
    FactOrders afterOutage = FactOrders.read(config, work.resolve(".floe"));
    assertThat(afterOutage.snapshotId()).isEqualTo(before.snapshotId());
    assertThat(afterOutage.tableHash()).isEqualTo(before.tableHash());

    // The same command after the restart, the keys now from an AWS credentials file.
    Path credentialsFile = work.resolve("aws-credentials");
    Files.writeString(
        credentialsFile,
        "[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
            .formatted(s3.accessKeyId(), s3.secretAccessKey()));
    BinFloe.Result rerun =
        ok(
            BinFloe.run(
                work,
                Map.of("AWS_SHARED_CREDENTIALS_FILE", credentialsFile.toString()),
                "run",
                job,
                "--slice",
                FactOrders.DAY.toString()));
    assertThat(rerun.out()).contains("committed");
    FactOrders after = FactOrders.read(config, work.resolve(".floe"));
    assertThat(after.orderIds(FactOrders.DAY)).hasSize(ROWS + 2);
    assertThat(after.dayHash(FactOrders.OTHER_DAY)).isEqualTo(before.dayHash(FactOrders.OTHER_DAY));
  }

  @Test
  void aRunStartedWhileS3IsDownFailsWithinTheBoundInOneLineAndTheRerunSucceeds() throws Exception {
    Map<String, String> env = s3.credentialEnvironment();
    FactOrders before = FactOrders.read(config, work.resolve(".floe"));

    s3.kill();
    BinFloe.Result failed;
    double seconds;
    try {
      long started = System.nanoTime();
      failed = BinFloe.run(work, env, "run", job(), "--slice", FactOrders.DAY.toString());
      seconds = (System.nanoTime() - started) / 1e9;
    } finally {
      s3.restart();
    }
    System.out.printf(
        "bin/floe run with S3 down from the start: exit %d after %.1f s%n%s%n",
        failed.exitCode(), seconds, failed.err());

    // Within the documented bound (floe.connect-timeout, 30 s by default) plus a JVM start.
    assertThat(seconds).isLessThan(45);
    assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
    assertThat(failed.err().lines())
        .containsExactly(
            "floe: Cannot run fact_orders_daily for 2026-10-03: cannot reach S3 at "
                + s3.endpoint()
                + ": connection refused");
    assertThat(failed.out() + failed.err() + logFile()).doesNotContain(s3.secretAccessKey());
    FactOrders afterOutage = FactOrders.read(config, work.resolve(".floe"));
    assertThat(afterOutage.snapshotId()).isEqualTo(before.snapshotId());

    // The same command with S3 back: it succeeds (a no-op when the day is already loaded).
    BinFloe.Result rerun =
        ok(BinFloe.run(work, env, "run", job(), "--slice", FactOrders.DAY.toString()));
    assertThat(rerun.out()).containsAnyOf("committed", "no-op");
  }

  @Test
  void wrongKeysAMissingBucketAndHttpsToAPlainEndpointEachFailInOneLineNamingWhatIsWrong()
      throws Exception {
    Map<String, String> env = new java.util.HashMap<>(s3.credentialEnvironment());
    FactOrders before = FactOrders.read(config, work.resolve(".floe"));

    env.put("FLOE_CATALOG_S3__SECRET_ACCESS_KEY", "not-the-secret");
    BinFloe.Result wrongSecret =
        BinFloe.run(work, env, "run", job(), "--slice", FactOrders.DAY.toString());

    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Map<String, Object> noBucket = new LinkedHashMap<>(s3.fileIoProperties());
    noBucket.put("warehouse", "s3://nobucket/floe");
    writeConfig(elsewhere, noBucket);
    // A command that may create the Floe home (a read-only one on a new folder is refused for the
    // home it does not find, before S3 is asked anything).
    BinFloe.Result missingBucket =
        BinFloe.run(elsewhere, s3.credentialEnvironment(), "sql", "SHOW DATABASES");

    Path tls = Files.createDirectories(work.resolve("tls"));
    Map<String, Object> https = new LinkedHashMap<>(s3.fileIoProperties());
    https.put("warehouse", "s3://warehouse/outage");
    String httpsEndpoint = s3.endpoint().replaceFirst("^http:", "https:");
    https.put("s3.endpoint", httpsEndpoint);
    writeConfig(tls, https);
    long started = System.nanoTime();
    BinFloe.Result tlsMismatch =
        BinFloe.run(tls, s3.credentialEnvironment(), "sql", "SHOW DATABASES");
    double tlsSeconds = (System.nanoTime() - started) / 1e9;

    assertThat(wrongSecret.err().lines())
        .as(wrongSecret.err())
        .containsExactly(
            "floe: Cannot run fact_orders_daily for 2026-10-03: S3 at "
                + s3.endpoint()
                + " refused the keys (SignatureDoesNotMatch); they come from s3.access-key-id and"
                + " s3.secret-access-key (FLOE_CATALOG_S3__ACCESS_KEY_ID,"
                + " FLOE_CATALOG_S3__SECRET_ACCESS_KEY)");
    assertThat(wrongSecret.exitCode()).isEqualTo(1);
    assertThat(missingBucket.err().lines())
        .as(missingBucket.err())
        .singleElement()
        .asString()
        .endsWith(
            "S3 at " + s3.endpoint() + " has no bucket 'nobucket' (warehouse s3://nobucket/floe)");
    assertThat(tlsMismatch.err().lines())
        .as(tlsMismatch.err())
        .singleElement()
        .asString()
        .contains("cannot reach S3 at " + httpsEndpoint + ": TLS handshake failed (");
    // Not Iceberg's 20 retries (about two minutes): within the connect bound and a JVM start.
    assertThat(tlsSeconds).isLessThan(45);
    assertThat(FactOrders.read(config, work.resolve(".floe")).snapshotId())
        .isEqualTo(before.snapshotId());
  }

  private static void writeConfig(Path directory, Map<String, Object> properties) throws Exception {
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            directory.resolve("floe.yaml").toFile(),
            Map.of("catalog", Map.of("type", "embedded", "properties", properties)));
  }

  private static String job() {
    return ServerPaths.repoRoot().resolve("examples/jobs/fact_orders_daily.yaml").toString();
  }

  /** bin/floe's log file in the default Floe home ("" when nothing was logged). */
  private static String logFile() throws Exception {
    Path log = work.resolve(".floe/logs/floe.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static BinFloe.Result ok(BinFloe.Result result) {
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    return result;
  }

  private static void ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
  }

  private static Path writeConfig() throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("warehouse", "s3://warehouse/outage");
    properties.putAll(s3.fileIoProperties());
    writeConfig(work, properties);
    return work.resolve("floe.yaml");
  }

  /**
   * 60,000 more staging rows for the day (a cross join of digits, written by Floe's own Flink SQL
   * on S3), and a tiny target file size on the fact table, so the run writes one data file per
   * 1,000 rows, one after another: a write that takes a while.
   */
  private static void prepareALongWrite(Path config, InProcessFloe floe) throws Exception {
    String digits = "(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))";
    ok(
        floe.run(
            "sql",
            "INSERT INTO sales.staging_orders SELECT CAST(1000000 + a.d + 10 * b.d + 100 * c.d"
                + " + 1000 * e.d + 10000 * f.d AS BIGINT), CAST(a.d AS BIGINT),"
                + " CAST(1.00 AS DECIMAL(10, 2)), DATE '2026-10-03' FROM "
                + String.join(
                    ", ",
                    digits + " a(d)",
                    digits + " b(d)",
                    digits + " c(d)",
                    digits + " e(d)",
                    "(VALUES (0), (1), (2), (3), (4), (5)) f(d)")));
    Catalog catalog =
        Catalogs.open(CatalogConfigLoader.load(config, work.resolve(".floe"), Map.of(), Map.of()));
    try {
      Catalogs.loadTable(catalog, FactOrders.TABLE)
          .updateProperties()
          .set("write.target-file-size-bytes", "1")
          .commit();
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Parquet files the S3 server holds under the fact table's data directory. */
  private static long dataFiles() throws Exception {
    Path table = s3.dataDirectory().resolve("warehouse/outage");
    if (!Files.exists(table)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(f -> f.toString().contains("fact_orders") && f.toString().endsWith(".parquet"))
          .count();
    }
  }
}
