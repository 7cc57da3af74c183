package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.ListeningSockets;
import dev.floe.catalog.config.ProbeJvm;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalClusterTest {

  @Test
  void aOneJobClusterStartsOnlyWhenAskedAndBeforeItsJobIsSubmitted() throws Exception {
    LocalCluster cluster = LocalCluster.forCommand(2);
    assertThat(cluster).as("a plain JVM starts local clusters of its own").isNotNull();
    try {
      assertThat(cluster.running()).as("nothing starts before it is asked to").isFalse();
      cluster.startInBackground();
      awaitRunning(cluster, true);

      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(2, new Configuration(), cluster);
      List<Long> rows = env.fromSequence(1, 1_000).map(v -> v * 2).executeAndCollect(2_000);
      assertThat(rows.stream().mapToLong(Long::longValue).sum()).isEqualTo(1_001_000L);
    } finally {
      cluster.close();
    }
    awaitRunning(cluster, false);
  }

  @Test
  void aOneJobClusterWhoseStartWasNotAskedForStartsAtSubmission() throws Exception {
    LocalCluster cluster = LocalCluster.forCommand(1);
    try {
      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(1, new Configuration(), cluster);
      assertThat(env.fromSequence(1, 10).executeAndCollect(20)).hasSize(10);
      assertThat(cluster.running()).isTrue();
    } finally {
      cluster.close();
    }
  }

  @Test
  void aOneJobClusterDefaultsToOneTaskPerCoreAsALocalEnvironmentDoes() {
    LocalCluster cluster = LocalCluster.forCommand(0);
    try {
      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(0, new Configuration(), cluster);
      int local = StreamExecutionEnvironment.createLocalEnvironment().getParallelism();
      assertThat(env.getParallelism()).isEqualTo(local);
    } finally {
      cluster.close();
    }
    assertThat(cluster.running()).as("closing an unstarted cluster starts nothing").isFalse();
  }

  @Test
  void noOneJobClusterWhileASharedClusterIsOpen() throws Exception {
    try (LocalCluster shared = LocalCluster.startOrJoin(2)) {
      assertThat(LocalCluster.forCommand(2)).isNull();
      StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(2, new Configuration(), null);
      env.setRuntimeMode(RuntimeExecutionMode.BATCH);
      assertThat(env.fromSequence(1, 5).executeAndCollect(10)).hasSize(5);
      assertThat(shared.running()).isTrue();
    }
  }

  @Test
  void noOneJobClusterUnderFlinkRunWithALocalTarget() {
    // What `flink run -t local -p 3` installs: its parallelism and configuration must apply.
    Configuration client = new Configuration();
    client.set(DeploymentOptions.TARGET, "local");
    client.set(DeploymentOptions.ATTACHED, true);
    client.set(CoreOptions.DEFAULT_PARALLELISM, 3);
    StreamContextEnvironment.setAsContext(
        new DefaultExecutorServiceLoader(), client, getClass().getClassLoader(), false, true);
    try {
      assertThat(LocalCluster.forCommand(0)).isNull();
      StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(0, new Configuration(), null);
      assertThat(env.getParallelism()).isEqualTo(3);
      // The cluster's addresses are its own: a job that set them would point the client elsewhere.
      assertThat(env.getConfiguration().getOptional(JobManagerOptions.BIND_HOST)).isEmpty();
      assertThat(env.getConfiguration().getOptional(RestOptions.ADDRESS)).isEmpty();
    } finally {
      StreamContextEnvironment.unsetAsContext();
    }
  }

  @Test
  void aJoinedHandleNeverStartsAClusterOfItsOwn() throws Exception {
    try (LocalCluster owner = LocalCluster.startOrJoin(1)) {
      int started = LocalCluster.clustersStarted();
      try (LocalCluster joined = LocalCluster.startOrJoin(1)) {
        joined.startInBackground();
        StreamExecutionEnvironment env =
            FlinkSessions.batchEnvironment(1, new Configuration(), joined);
        assertThat(env.fromSequence(1, 3).executeAndCollect(5)).hasSize(3);
      }
      assertThat(LocalCluster.clustersStarted()).isEqualTo(started);
      assertThat(owner.running()).isTrue();
    }
  }

  @Test
  void closingAOneJobClusterThatIsStillStartingWaitsForItAndStopsIt() {
    // A run that fails after asking for its cluster, before submitting its job: the process exits
    // right after, so the cluster must be stopped (threads, working directories) by then.
    LocalCluster cluster = LocalCluster.forCommand(1);
    cluster.startInBackground();
    cluster.close();
    assertThat(cluster.startedCluster()).as("close waited for the start").isNotNull();
    assertThat(cluster.startedCluster().isRunning()).isFalse();
  }

  @Test
  void aOneJobClusterListensOnlyOnTheLoopbackInterface() throws Exception {
    List<InetSocketAddress> before = ListeningSockets.of(ProcessHandle.current().pid());
    LocalCluster cluster = LocalCluster.forCommand(1);
    try {
      cluster.startInBackground();
      awaitRunning(cluster, true);
      MiniCluster started = cluster.startedCluster();
      int blob = started.getClusterInformation().getBlobServerPort();
      int rest = started.getRestAddress().get().getPort();
      List<InetSocketAddress> opened = ListeningSockets.openedSince(before);
      assertThat(opened)
          .as("its BLOB server and REST endpoint")
          .extracting(InetSocketAddress::getPort)
          .contains(blob, rest);
      assertThat(opened)
          .allSatisfy(socket -> assertThat(socket.getAddress().isLoopbackAddress()).isTrue());
    } finally {
      cluster.close();
    }
  }

  @Test
  void aJobOnFlinksOwnLocalClusterListensOnlyOnTheLoopbackInterface() throws Exception {
    // No cluster of Floe's: Flink's local environment starts a MiniCluster for the job.
    assertThat(LocalCluster.active()).isNull();
    List<InetSocketAddress> before = ListeningSockets.of(ProcessHandle.current().pid());
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(1, new Configuration(), null);
    // Each address as its literal text: the list travels back through the job's result socket.
    List<String> duringTheJob =
        env.fromSequence(1, 1)
            .map(
                v ->
                    ListeningSockets.openedSince(before).stream()
                        .map(socket -> socket.getAddress().getHostAddress())
                        .collect(Collectors.joining(" ")))
            .executeAndCollect(2);
    assertThat(duringTheJob).hasSize(1);
    List<String> opened = List.of(duringTheJob.get(0).split(" "));
    assertThat(opened).as("its BLOB server, REST endpoint and result socket").hasSizeGreaterThan(2);
    for (String address : opened) {
      assertThat(InetAddress.getByName(address).isLoopbackAddress()).as(address).isTrue();
    }
  }

  @Test
  void aLargeResultArrivesWhenTheJvmPrefersIpv6(@TempDir Path dir) throws Exception {
    // The result socket's client connects to Java's loopback address, ::1 in such a JVM.
    List<String> options = new ArrayList<>(flinkJvmOptions());
    options.add("-Djava.net.preferIPv6Addresses=true");
    long rows = 1_000_000; // about 8 MB: past what the job can hand over without the socket
    List<String> printed = ProbeJvm.run(dir, LargeResultProbe.class, options, "" + rows);
    assertThat(printed).contains(rows + " " + rows * (rows + 1) / 2);
  }

  /** The --add-opens and --add-exports Flink needs on Java 17, as this JVM got them. */
  private static List<String> flinkJvmOptions() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(option -> option.startsWith("--add-"))
        .toList();
  }

  private static void awaitRunning(LocalCluster cluster, boolean running)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (cluster.running() != running && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(cluster.running()).isEqualTo(running);
  }
}
