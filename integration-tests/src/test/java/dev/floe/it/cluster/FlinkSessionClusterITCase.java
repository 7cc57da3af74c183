package dev.floe.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.it.catalogs.FactOrders;
import dev.floe.it.catalogs.InProcessFloe;
import dev.floe.it.servers.ChildProcess;
import dev.floe.it.servers.ClientCredentials;
import dev.floe.it.servers.FlinkCluster;
import dev.floe.it.servers.FlinkRestSubmitter;
import dev.floe.it.servers.FreePort;
import dev.floe.it.servers.LoopbackOnly;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.S3Server;
import dev.floe.it.servers.S3Servers;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar on a real Flink session cluster (a JobManager and a TaskManager JVM on 127.0.0.1),
 * with the production-shaped catalog: JDBC on PostgreSQL, warehouse on S3, secrets only in the
 * cluster processes' environment. One slice is submitted over REST as the Kubernetes operator does
 * (entry class FloeClusterMain, main in the JobManager), submitted again (an unchanged rerun in a
 * cluster program still submits its job), rerun with the CLI frontend exactly as the README's
 * {@code flink run} line, and a bad submission is refused while the JobManager stays up.
 */
class FlinkSessionClusterITCase {
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(3);

  private static S3Server s3;
  private static PostgresServer postgres;
  private static FlinkCluster cluster;
  private static ClientCredentials credentials;
  private static Map<String, String> secrets;

  @TempDir static Path work;

  @BeforeAll
  static void startServers() {
    s3 = S3Servers.start();
    s3.createBucket("warehouse");
    postgres = PostgresServer.start();
    secrets = new HashMap<>(s3.credentialEnvironment());
    secrets.putAll(postgres.credentialEnvironment());
    cluster = FlinkCluster.start(secrets);
    credentials = ClientCredentials.install(s3, postgres);
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(credentials, cluster, postgres, s3);
  }

  @Test
  void theClusterListensOn127001Only() {
    for (int port : cluster.ports()) {
      assertThat(FreePort.isOpen(port)).as("127.0.0.1:%d", port).isTrue();
      assertThat(LoopbackOnly.exposures(port)).isEmpty();
    }
  }

  @Test
  void aSliceSubmittedToTheClusterCommitsOnceAndItsRerunIsANoOp() throws Exception {
    Path config = writeConfig();
    Path examples = ServerPaths.repoRoot().resolve("examples");
    String job = examples.resolve("jobs/fact_orders_daily.yaml").toString();
    InProcessFloe floe = new InProcessFloe(config, work.resolve(".floe"));
    assertThat(floe.run("tables", "apply", examples.resolve("tables").toString()).exitCode())
        .isZero();
    assertThat(
            floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()).exitCode())
        .isZero();

    // 1. REST submission, as the operator submits a FlinkDeployment or FlinkSessionJob.
    FlinkRestSubmitter rest = new FlinkRestSubmitter(cluster.restUrl());
    String jarId = rest.upload(ServerPaths.required("floe.shaded.jar"));
    List<String> args =
        List.of("run", job, "--slice", FactOrders.DAY.toString(), "--config", config.toString());
    FlinkRestSubmitter.Submission submitted =
        rest.run(jarId, ImageLayout.CLUSTER_ENTRY_CLASS, args);
    assertThat(submitted.accepted()).as(submitted.body()).isTrue();
    assertThat(rest.awaitEnd(submitted.jobId(), JOB_TIMEOUT))
        .as(cluster.jobManagerLog())
        .isEqualTo("FINISHED");

    FactOrders loaded = FactOrders.read(config, work.resolve(".floe"));
    assertThat(loaded.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(loaded.orderIds(FactOrders.OTHER_DAY)).isEmpty();
    assertThat(loaded.location()).startsWith("s3://warehouse/");
    assertThat(loaded.summary())
        .containsKey("floe.run-key")
        .containsEntry("floe.job", "fact_orders_daily")
        .containsEntry("floe.slice", "order_date=[2026-10-03,2026-10-04)");
    // Nobody waits for a REST submission's outcome: the committer's log line is its record.
    assertThat(cluster.taskManagerLog())
        .contains(
            "Floe job fact_orders_daily, run "
                + loaded.summary().get("floe.run-id")
                + " of sales.fact_orders for order_date=[2026-10-03,2026-10-04)")
        .contains(": committed, snapshot " + loaded.snapshotId() + ", 2 rows");

    // 2. The same slice over REST again: an application must submit a job (the dispatcher fails
    // one that submits none), so in a cluster program an unchanged rerun starts its job instead
    // of skipping it, and that job's committer finds the slice unchanged.
    FlinkRestSubmitter.Submission again = rest.run(jarId, ImageLayout.CLUSTER_ENTRY_CLASS, args);
    assertThat(again.accepted()).as(again.body()).isTrue();
    assertThat(rest.awaitEnd(again.jobId(), JOB_TIMEOUT))
        .as(cluster.jobManagerLog())
        .isEqualTo("FINISHED");
    FactOrders resubmitted = FactOrders.read(config, work.resolve(".floe"));
    assertThat(resubmitted.snapshotId()).isEqualTo(loaded.snapshotId());
    assertThat(resubmitted.tableHash()).isEqualTo(loaded.tableHash());
    assertThat(cluster.taskManagerLog()).contains(": no-op, snapshot " + loaded.snapshotId());

    // 3. The same slice with `flink run` (the CLI frontend, main in the client): a no-op, and
    // with --json stdout holds that one object, without the client's "Job has been submitted".
    ProcessResult flinkRun =
        flinkRun(
            "run",
            job,
            "--slice",
            FactOrders.DAY.toString(),
            "--config",
            config.toString(),
            "--json");
    assertThat(flinkRun.exitCode()).as(flinkRun.errors()).isZero();
    JsonNode answer = new ObjectMapper().readTree(flinkRun.output());
    assertThat(answer.path("status").asText()).as(flinkRun.output()).isEqualTo("no-op");
    assertThat(flinkRun.errors()).contains("Job has been submitted with JobID");
    FactOrders rerun = FactOrders.read(config, work.resolve(".floe"));
    assertThat(rerun.snapshotId()).isEqualTo(loaded.snapshotId());
    assertThat(rerun.tableHash()).isEqualTo(loaded.tableHash());

    // 4. A bad submission fails the submission, not the JobManager (FloeMain would exit it).
    FlinkRestSubmitter.Submission refused =
        rest.run(
            jarId,
            ImageLayout.CLUSTER_ENTRY_CLASS,
            List.of("run", job, "--slice", "not-a-date", "--config", config.toString()));
    assertThat(refused.accepted()).isFalse();
    assertThat(refused.body()).contains("exit code 2");
    assertThat(cluster.jobManagerAlive()).isTrue();
    assertThat(rest.answers()).isTrue();
    assertThat(FactOrders.read(config, work.resolve(".floe")).snapshotId())
        .isEqualTo(loaded.snapshotId());

    // 5. A query with `flink run`, as docker/README's walkthrough reads a table: the planner's
    // classes are hidden from user code there (flink-table-planner-loader), which a SELECT's
    // column lineage used and failed on (NoClassDefFoundError).
    ProcessResult query =
        flinkRun(
            "sql",
            "SELECT order_id FROM sales.fact_orders ORDER BY order_id",
            "--config",
            config.toString(),
            "--json");
    assertThat(query.exitCode()).as(query.errors()).isZero();
    JsonNode rows = new ObjectMapper().readTree(query.output()).path(0).path("rows");
    assertThat(rows.findValuesAsText("order_id")).as(query.output()).containsExactly("1", "2");
  }

  private static Path writeConfig() throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("uri", postgres.createDatabase("floe_cluster"));
    properties.put("jdbc.user", PostgresServer.USER);
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", "s3://warehouse/cluster");
    properties.putAll(s3.fileIoProperties());
    Path config = work.resolve("floe.yaml");
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            config.toFile(), Map.of("catalog", Map.of("type", "jdbc", "properties", properties)));
    return config;
  }

  private record ProcessResult(int exitCode, String output, String errors) {}

  /**
   * {@code flink run -m HOST:PORT -c dev.floe.flink.cli.FloeMain floe.jar ARGS...}, e.g. {@code run
   * JOB --slice D --config floe.yaml}: the CLI frontend's own class, with the cluster's classpath
   * (Flink and Floe's lib/ jars) as {@code bin/flink} builds it.
   */
  private static ProcessResult flinkRun(String... floeArgs) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.addAll(FlinkCluster.jvmFlags());
    command.addAll(List.of("-cp", FlinkCluster.classpath()));
    command.add("org.apache.flink.client.cli.CliFrontend");
    command.addAll(
        List.of(
            "run",
            "-m",
            cluster.address(),
            "-c",
            "dev.floe.flink.cli.FloeMain",
            ServerPaths.required("floe.shaded.jar").toString()));
    command.addAll(List.of(floeArgs));
    Path log = work.resolve("flink-run.log");
    Path stdout = work.resolve("flink-run.out");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(log.toFile()).redirectOutput(stdout.toFile());
    builder.environment().put("FLINK_CONF_DIR", cluster.confDir().toString());
    builder.environment().putAll(secrets);
    Process process = builder.start();
    if (!process.waitFor(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("flink run did not finish:\n" + Files.readString(log));
    }
    return new ProcessResult(process.exitValue(), Files.readString(stdout), Files.readString(log));
  }
}
