package dev.floe.it.catalogs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.it.BinFloe;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.CommitFaultProxy;
import dev.floe.it.servers.CommitFaultProxy.Commit;
import dev.floe.it.servers.CommitFaultProxy.Fault;
import dev.floe.it.servers.FreePort;
import dev.floe.it.servers.LoopbackOnly;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.S3Server;
import dev.floe.it.servers.S3Servers;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A commit whose outcome the catalog never reports, for real: an Iceberg REST catalog (warehouse on
 * S3) behind {@link CommitFaultProxy}, which forwards the commit of sales.fact_orders and then
 * loses the catalog's answer, answers a 5xx instead, or drops the commit before the catalog sees
 * it. The lost answer, the dropped commit and a rollback go through bin/floe with the catalog uri
 * pointing at the proxy; the set-up, the 5xx variants and the reruns run in this JVM through the
 * same entry point (a bin/floe JVM costs tens of seconds on a busy machine). The table is read
 * through Iceberg itself, never through Floe's lineage.
 */
class LostCommitResponseITCase {
  private static final String TABLE = FactOrders.TABLE;
  private static final String DAY = FactOrders.DAY.toString();
  private static final Pattern RUN_ID = Pattern.compile("(?m)^  run id +(\\S+)$");

  private static S3Server s3;
  private static RestCatalogServer rest;
  private static CommitFaultProxy proxy;
  private static ClientCredentials credentials;
  private static InProcessFloe floe;
  private static Path examples;
  private static String job;

  @TempDir static Path work;

  @BeforeAll
  static void startServers() throws Exception {
    s3 = S3Servers.start();
    s3.createBucket(CatalogSetup.BUCKET);
    Map<String, String> backend = new LinkedHashMap<>(s3.fileIoProperties());
    backend.put("warehouse", "s3://" + CatalogSetup.BUCKET + "/lost");
    rest =
        RestCatalogServer.start(
            backend,
            Map.of(
                "REST_BACKEND_S3__ACCESS_KEY_ID", s3.accessKeyId(),
                "REST_BACKEND_S3__SECRET_ACCESS_KEY", s3.secretAccessKey()));
    proxy = CommitFaultProxy.start(rest.port());
    credentials = ClientCredentials.install(s3, null);

    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("uri", proxy.uri());
    properties.putAll(s3.fileIoProperties());
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            config.toFile(), Map.of("catalog", Map.of("type", "rest", "properties", properties)));
    floe = new InProcessFloe(config, work.resolve(".floe"));
    examples = ServerPaths.repoRoot().resolve("examples");
    job = examples.resolve("jobs/fact_orders_daily.yaml").toString();
    ok(floe.run("tables", "apply", examples.resolve("tables").toString()));
    ok(floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()));
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(credentials, proxy, rest, s3);
  }

  /** Every test starts from an empty sales.fact_orders and an unarmed proxy. */
  @BeforeEach
  void emptyFactTable() {
    withCatalog(catalog -> catalog.dropTable(Catalogs.identifier(TABLE), true));
    ok(floe.run("tables", "apply", examples.resolve("tables/fact_orders.yaml").toString()));
    proxy.reset();
  }

  @Test
  void theProxyListensOn127001Only() {
    assertThat(FreePort.isOpen(proxy.port())).isTrue();
    assertThat(LoopbackOnly.exposures(proxy.port())).isEmpty();
  }

  @Test
  void aCommitWhoseAnswerIsLostIsFoundByItsRunIdAndReportedCommittedWithoutASecondCommit()
      throws Exception {
    proxy.arm(TABLE, Fault.LOSE_RESPONSE, 1);
    BinFloe.Result run = binFloe("run", job, "--slice", DAY);

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).containsPattern("(?m)^  status +committed$");
    // The catalog applied the one commit the proxy forwarded; nothing else was sent.
    assertThat(proxy.commits()).containsExactly(new Commit(TABLE, Fault.LOSE_RESPONSE, 200));
    committedOnceWithTheSlicesRows(runId(run.out()));
    rerunIsANoOp();
  }

  /**
   * In this JVM (the exit code comes from the same entry point as bin/floe's). Iceberg's REST
   * client settles the 502 itself: it refreshes and finds the snapshot it added.
   */
  @Test
  void aCommitAnswered502AfterTheCatalogAppliedItIsReportedCommittedWithoutASecondSnapshot()
      throws Exception {
    proxy.arm(TABLE, Fault.BAD_GATEWAY_AFTER_COMMIT, 1);
    InProcessFloe.Result run = floe.run("run", job, "--slice", DAY);

    assertThat(run.exitCode()).as(run.both()).isZero();
    assertThat(run.out()).containsPattern("(?m)^  status +committed$");
    assertThat(proxy.commits())
        .containsExactly(new Commit(TABLE, Fault.BAD_GATEWAY_AFTER_COMMIT, 200));
    committedOnceWithTheSlicesRows(runId(run.out()));
    rerunIsANoOp();
  }

  /**
   * A 503 with Retry-After after the catalog applied the commit: Iceberg's HTTP client sends the
   * same commit again (it retries any request on 503 + Retry-After), the catalog refuses it (409),
   * Iceberg's own commit retry then fails validation against the run's own files, and its clean-up
   * of that failure deletes the manifest list (and new manifests) of the snapshot the catalog did
   * commit. Floe then finds its run in the history and reports it committed, over a head no reader
   * can open (NoSuchKey on snap-*.avro).
   */
  @Test
  void aCommitResentByIcebergsClientAfter503IsNeverReportedCommittedOverAnUnreadableHead()
      throws Exception {
    proxy.arm(TABLE, Fault.UNAVAILABLE_RETRY_AFTER_COMMIT, 1);
    InProcessFloe.Result run = floe.run("run", job, "--slice", DAY);
    System.out.println("503 + Retry-After: exit " + run.exitCode() + ", " + proxy.commits());

    // The client sent the commit twice; the catalog accepted the first only.
    assertThat(proxy.commits())
        .containsExactly(
            new Commit(TABLE, Fault.UNAVAILABLE_RETRY_AFTER_COMMIT, 200),
            new Commit(TABLE, null, 409));
    if (run.exitCode() == 0) {
      assertThat(headManifestListExists()).as("the head's manifest list exists").isTrue();
      committedOnceWithTheSlicesRows(runId(run.out()));
    } else {
      // Iceberg 1.11 deletes the manifest list of a commit its HTTP client re-sent (503 +
      // Retry-After -> 409 -> ValidationException -> SnapshotProducer.cleanAll): Floe must say
      // so, never "committed".
      assertThat(run.exitCode()).as(run.both()).isEqualTo(5);
      assertThat(run.both()).contains("Cannot confirm slice", "cannot be read at that snapshot");
    }
  }

  @Test
  void aCommitThatNeverReachedTheCatalogIsReportedUnknownKeepsItsFilesAndTheRerunCommits()
      throws Exception {
    proxy.arm(TABLE, Fault.DROP_REQUEST, 1);
    int objectsBefore = dataObjects();
    BinFloe.Result run = binFloe("run", job, "--slice", DAY);

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(5);
    assertThat(run.err())
        .startsWith(
            "floe: Cannot tell whether slice order_date=[2026-10-03,2026-10-04) of "
                + TABLE
                + " was committed: ")
        .contains("is not in the history yet; the files were kept")
        .doesNotContain("\tat ");
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(proxy.commits()).containsExactly(new Commit(TABLE, Fault.DROP_REQUEST, -1));
    Matcher lost = Pattern.compile("run (\\S+) is not in the history").matcher(run.err());
    assertThat(lost.find()).as(run.err()).isTrue();
    String lostRun = lost.group(1);
    // The table is unchanged (still no snapshot); the run's data files were kept, not deleted.
    FactOrders after = FactOrders.read(floe.config(), floe.home());
    assertThat(after.snapshotId()).isEqualTo(-1);
    assertThat(dataObjects()).isGreaterThan(objectsBefore);

    InProcessFloe.Result rerun = ok(floe.run("run", job, "--slice", DAY));
    assertThat(rerun.out()).containsPattern("(?m)^  status +committed$");
    committedOnceWithTheSlicesRows(runId(rerun.out()));
    assertThat(snapshotsOfRun(lostRun)).isEmpty();
  }

  @Test
  void aRollbackWhoseAnswerIsLostAndItsUndoAnswered502AreEachFoundAndReportedDoneOnce()
      throws Exception {
    ok(floe.run("run", job, "--slice", DAY));
    long first = FactOrders.read(floe.config(), floe.home()).snapshotId();
    ok(floe.run("run", job, "--slice", FactOrders.OTHER_DAY.toString()));
    long second = FactOrders.read(floe.config(), floe.home()).snapshotId();

    proxy.reset();
    proxy.arm(TABLE, Fault.LOSE_RESPONSE, 1);
    BinFloe.Result rollback = binFloe("rollback", TABLE, "--to-snapshot", Long.toString(first));

    assertThat(rollback.exitCode()).as(rollback.out() + rollback.err()).isZero();
    assertThat(rollback.out())
        .startsWith("rolled back " + TABLE + ": snapshot " + second + " -> " + first);
    assertThat(proxy.commits()).containsExactly(new Commit(TABLE, Fault.LOSE_RESPONSE, 200));
    withTable(
        table -> {
          assertThat(table.currentSnapshot().snapshotId()).isEqualTo(first);
          SnapshotRef tag = table.refs().get("floe-before-rollback-1");
          assertThat(tag).isNotNull();
          assertThat(tag.snapshotId()).isEqualTo(second);
          assertThat(table.refs()).doesNotContainKey("floe-before-rollback-2");
          return null;
        });

    // Undoing it, the catalog's answer replaced by a 502: Iceberg's client cannot settle a
    // ref-only change itself, so the commit core looks the rollback up.
    proxy.reset();
    proxy.arm(TABLE, Fault.BAD_GATEWAY_AFTER_COMMIT, 1);
    InProcessFloe.Result undo =
        floe.run("rollback", TABLE, "--to-snapshot", Long.toString(second), "--allow-non-ancestor");
    assertThat(undo.exitCode()).as(undo.both()).isZero();
    assertThat(proxy.commits())
        .containsExactly(new Commit(TABLE, Fault.BAD_GATEWAY_AFTER_COMMIT, 200));
    assertThat(FactOrders.read(floe.config(), floe.home()).snapshotId()).isEqualTo(second);
  }

  /**
   * The slice holds exactly the staging rows of the day, once; exactly one snapshot carries the
   * run's id, and it is the head.
   */
  private static void committedOnceWithTheSlicesRows(String runId) throws Exception {
    FactOrders table = FactOrders.read(floe.config(), floe.home());
    assertThat(table.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(table.orderIds(FactOrders.OTHER_DAY)).isEmpty();
    List<Snapshot> ofRun = snapshotsOfRun(runId);
    assertThat(ofRun).as("snapshots with floe.run-id %s", runId).hasSize(1);
    assertThat(ofRun.get(0).snapshotId()).isEqualTo(table.snapshotId());
  }

  private static void rerunIsANoOp() throws Exception {
    long head = FactOrders.read(floe.config(), floe.home()).snapshotId();
    int commits = proxy.commits().size();
    InProcessFloe.Result rerun = ok(floe.run("run", job, "--slice", DAY));
    assertThat(rerun.out()).containsPattern("(?m)^  status +no-op$");
    assertThat(FactOrders.read(floe.config(), floe.home()).snapshotId()).isEqualTo(head);
    assertThat(proxy.commits()).hasSize(commits);
  }

  private static boolean headManifestListExists() {
    return withTable(
        table -> table.io().newInputFile(table.currentSnapshot().manifestListLocation()).exists());
  }

  private static List<Snapshot> snapshotsOfRun(String runId) {
    return withTable(
        table ->
            StreamSupport.stream(table.snapshots().spliterator(), false)
                .filter(s -> runId.equals(s.summary().get(LineageKeys.RUN_ID)))
                .toList());
  }

  private static String runId(String out) {
    Matcher matcher = RUN_ID.matcher(out);
    assertThat(matcher.find()).as(out).isTrue();
    return matcher.group(1);
  }

  private static BinFloe.Result binFloe(String... args) throws Exception {
    long start = System.nanoTime();
    BinFloe.Result result = BinFloe.run(work, s3.credentialEnvironment(), args);
    System.out.printf(
        "bin/floe %s: exit %d in %.1f s%n%s%s",
        args[0], result.exitCode(), (System.nanoTime() - start) / 1e9, result.out(), result.err());
    return result;
  }

  private static InProcessFloe.Result ok(InProcessFloe.Result result) {
    assertThat(result.exitCode()).as(result.both()).isZero();
    return result;
  }

  private static <T> T withTable(Function<Table, T> read) {
    return withCatalog(catalog -> read.apply(Catalogs.loadTable(catalog, TABLE)));
  }

  private static <T> T withCatalog(Function<Catalog, T> use) {
    Catalog catalog =
        Catalogs.open(CatalogConfigLoader.load(floe.config(), floe.home(), Map.of(), Map.of()));
    try {
      return use.apply(catalog);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Objects the S3 server holds under the fact table's data directory. */
  private static int dataObjects() {
    String prefix = "s3://" + CatalogSetup.BUCKET + "/";
    String location = withTable(Table::location);
    assertThat(location).startsWith(prefix);
    try (S3Client client = s3.client()) {
      return client
          .listObjectsV2(
              request ->
                  request
                      .bucket(CatalogSetup.BUCKET)
                      .prefix(location.substring(prefix.length()) + "/data/"))
          .keyCount();
    }
  }
}
