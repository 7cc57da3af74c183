package dev.floe.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.k8s.ClusterSettings;
import dev.floe.catalog.k8s.K8sRender;
import dev.floe.catalog.k8s.RenderOptions;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.it.catalogs.FactOrders;
import dev.floe.it.catalogs.InProcessFloe;
import dev.floe.it.servers.FlinkCluster;
import dev.floe.it.servers.ServerPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as a Kubernetes FlinkDeployment runs it: an application cluster (a JobManager and
 * a TaskManager JVM on 127.0.0.1) whose JobManager runs {@code FloeClusterMain} with the Flink
 * settings {@code floe k8s render} gives the resource. There {@code floe run} must wait for its
 * job, as on a laptop: only then does it send the job's effect after the commit (and cancel the job
 * at its timeout, and fail the application with its exit code).
 */
class FlinkApplicationClusterITCase {
  private static final Duration APPLICATION_TIMEOUT = Duration.ofMinutes(4);

  @RegisterExtension final WebhookServer webhook = new WebhookServer();
  @TempDir Path work;

  @Test
  void aRenderedFlinkDeploymentsRunWaitsForItsCommitAndSendsItsEffectOnce() throws Exception {
    Path examples = ServerPaths.repoRoot().resolve("examples");
    Path project = work.resolve("project");
    Files.createDirectories(project.resolve("jobs"));
    Path config = project.resolve("floe.yaml");
    Files.writeString(config, "catalog: {type: embedded}\n");
    Path job = project.resolve("jobs/fact_orders_daily.yaml");
    Files.writeString(
        job,
        Files.readString(examples.resolve("jobs/fact_orders_daily.yaml"))
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s"
                  body: '{"rows": ${rows}}'
            """
                .formatted(webhook.url("/loaded")));
    Path home = work.resolve(".floe");
    InProcessFloe floe = new InProcessFloe(config, home);
    assertThat(floe.run("tables", "apply", examples.resolve("tables").toString()).exitCode())
        .isZero();
    assertThat(
            floe.run("sql", "-f", examples.resolve("sql/seed_staging.sql").toString()).exitCode())
        .isZero();
    String day = FactOrders.DAY.toString();
    Map<String, Object> deployment =
        K8sRender.slice(
                job,
                day,
                RenderOptions.application(ClusterSettings.defaults("floe:it"), "it-version"))
            .documents()
            .get(0)
            .body();
    @SuppressWarnings("unchecked")
    Map<String, String> flinkConfiguration =
        (Map<String, String>)
            ((Map<String, Object>) deployment.get("spec")).get("flinkConfiguration");

    FlinkCluster cluster =
        FlinkCluster.application(
            Map.of(),
            flinkConfiguration,
            ServerPaths.required("floe.shaded.jar"),
            ImageLayout.CLUSTER_ENTRY_CLASS,
            List.of(
                "run",
                job.toString(),
                "--slice",
                day,
                "--config",
                config.toString(),
                "--home",
                home.toString()));
    int exitCode = cluster.awaitApplicationEnd(APPLICATION_TIMEOUT);

    String log = cluster.jobManagerLog();
    assertThat(exitCode).as(log).isZero();
    FactOrders loaded = FactOrders.read(config, home);
    assertThat(loaded.orderIds(FactOrders.DAY)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(webhook.requests())
        .as(log)
        .extracting(WebhookServer.Request::body)
        .containsExactly("{\"rows\": 2}");
  }
}
