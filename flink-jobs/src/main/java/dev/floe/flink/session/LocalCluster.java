package dev.floe.flink.session;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One in-process Flink cluster that many jobs share. Outside a cluster, every {@code env.execute()}
 * otherwise starts and stops a MiniCluster of its own, which costs more than a small slice's whole
 * job; a backfill of a hundred slices starts this once instead. While a cluster is open, {@link
 * FlinkSessions#batchEnvironment} submits to it (from any thread); closing it restores the per-job
 * default. Bound to 127.0.0.1 on a free port.
 */
public final class LocalCluster implements AutoCloseable {
  private static volatile LocalCluster active;

  private final MiniCluster miniCluster;
  private final boolean owner;

  private LocalCluster(MiniCluster miniCluster, boolean owner) {
    this.miniCluster = miniCluster;
    this.owner = owner;
  }

  /**
   * The open shared cluster, joined, or a new one when none is open: a backfill run inside a
   * process that already shares a cluster (a test, an embedding) uses that one. Closing a joined
   * handle leaves the cluster open for its owner.
   *
   * @param slots task slots, when a new cluster is started
   */
  public static synchronized LocalCluster startOrJoin(int slots) {
    if (active != null) {
      return new LocalCluster(active.miniCluster, false);
    }
    return start(slots);
  }

  /**
   * Turns off Flink's leaked-classloader check for the in-process cluster. In one JVM the AWS SDK's
   * HTTP client (S3FileIO) and commons-logging cache the thread's context classloader across jobs;
   * with the check on, the second job on S3 in the same process failed with "Trying to access
   * closed classloader". Locally every job's classloader only delegates to the application's, so
   * nothing is lost; a real cluster keeps its own setting.
   */
  static void allowLibrariesThatOutliveAJob(Configuration conf) {
    conf.set(CoreOptions.CHECK_LEAKED_CLASSLOADER, false);
  }

  /**
   * Starts the shared cluster.
   *
   * @param slots task slots: enough for the jobs in flight times their parallelism
   * @throws IllegalStateException when another shared cluster is open in this JVM
   */
  public static synchronized LocalCluster start(int slots) {
    if (active != null) {
      throw new IllegalStateException("Cannot start a shared Flink cluster: one is already open");
    }
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    conf.set(TaskManagerOptions.HOST, "127.0.0.1");
    allowLibrariesThatOutliveAJob(conf);
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(Math.max(1, slots))
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .build());
    try {
      cluster.start();
    } catch (Exception e) {
      cluster.closeAsync();
      throw new IllegalStateException("Cannot start a local Flink cluster: " + e.getMessage(), e);
    }
    active = new LocalCluster(cluster, true);
    return active;
  }

  /** The open shared cluster's environment factory, or null when jobs start their own. */
  static LocalCluster active() {
    return active;
  }

  /** A batch environment whose jobs run on this cluster. */
  StreamExecutionEnvironment environment(Configuration extra) {
    Configuration conf = new Configuration(extra);
    // Wait for the job and return its result, as a local environment does: the committer's
    // outcome arrives as an accumulator of that result.
    conf.set(DeploymentOptions.ATTACHED, true);
    conf.set(DeploymentOptions.TARGET, SharedExecutorLoader.NAME);
    return new StreamExecutionEnvironment(
        new SharedExecutorLoader(), conf, Thread.currentThread().getContextClassLoader());
  }

  @Override
  public void close() {
    if (!owner) {
      return; // joined: the cluster belongs to whoever started it
    }
    synchronized (LocalCluster.class) {
      if (active == this) {
        active = null;
      }
    }
    try {
      miniCluster.closeAsync().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop the local Flink cluster: " + e.getMessage(), e);
    }
  }

  /** Hands every pipeline to the shared MiniCluster instead of a new one. */
  private final class SharedExecutorLoader
      implements PipelineExecutorServiceLoader, PipelineExecutorFactory, PipelineExecutor {
    private static final String NAME = "floe-shared-local";

    @Override
    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
      return this;
    }

    @Override
    public Stream<String> getExecutorNames() {
      return Stream.of(NAME);
    }

    @Override
    public String getName() {
      return NAME;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
      return true;
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
      return this;
    }

    @Override
    public CompletableFuture<JobClient> execute(
        org.apache.flink.api.dag.Pipeline pipeline, Configuration conf, ClassLoader classLoader)
        throws Exception {
      JobGraph jobGraph = PipelineExecutorUtils.getJobGraph(pipeline, conf, classLoader);
      return miniCluster
          .submitJob(jobGraph)
          .thenApply(
              submitted ->
                  new MiniClusterJobClient(
                      submitted.getJobID(),
                      miniCluster,
                      classLoader,
                      MiniClusterJobClient.JobFinalizationBehavior.NOTHING));
    }
  }
}
