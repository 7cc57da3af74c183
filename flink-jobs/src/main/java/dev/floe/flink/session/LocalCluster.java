package dev.floe.flink.session;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process Flink cluster that many jobs share. Outside a cluster, every {@code env.execute()}
 * otherwise starts and stops a MiniCluster of its own, which costs more than a small slice's whole
 * job. Two kinds: a shared cluster ({@link #start}, {@link #startOrJoin}: a backfill, the
 * quickstart), to which {@link FlinkSessions#batchEnvironment} submits from any thread while it is
 * open; and a command's own ({@link #forCommand}: {@code floe run}, {@code floe sql}), passed to
 * {@link FlinkSessions#batchEnvironment(int, Configuration, LocalCluster)}. Listens on the loopback
 * interface only, on free ports ({@link #bindToLoopback}).
 */
public final class LocalCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
  private static final String LOOPBACK = "127.0.0.1";
  private static final AtomicInteger STARTED = new AtomicInteger();
  private static final AtomicInteger STOPPED = new AtomicInteger();

  private static volatile LocalCluster active;

  private final int slots;
  private final CompletableFuture<MiniCluster> miniCluster;
  private final boolean owner;
  private final boolean shared;
  private final AtomicBoolean startRequested = new AtomicBoolean();

  private LocalCluster(
      int slots, CompletableFuture<MiniCluster> miniCluster, boolean owner, boolean shared) {
    this.slots = slots;
    this.miniCluster = miniCluster;
    this.owner = owner;
    this.shared = shared;
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
      return new LocalCluster(active.slots, active.miniCluster, false, true);
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
   * Binds every server of an in-process cluster to the loopback interface, on a free port: its REST
   * endpoint, its BLOB server, which Flink binds to every interface unless told otherwise (it
   * serves and accepts job artifacts without authentication), and the socket a job's collected
   * results are fetched from. Its RPC is local and its tasks exchange data in memory.
   *
   * <p>The result socket binds to the task manager's bind host, but its client connects to the task
   * manager's address, which a MiniCluster leaves empty, so Java's loopback address: {@code ::1}
   * when the JVM prefers IPv6. Hence the same address here, else a large result (a {@code floe sql}
   * SELECT of many rows) would never arrive. (The task manager's BLOB cache connects to this host's
   * name, 127.0.1.1 on some Linux systems; it only fetches what the shared storage directory does
   * not already have, which Floe never needs.)
   */
  static void bindToLoopback(Configuration conf) {
    conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
    conf.set(RestOptions.ADDRESS, LOOPBACK);
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(JobManagerOptions.ADDRESS, LOOPBACK);
    conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
    conf.set(TaskManagerOptions.HOST, LOOPBACK);
    conf.set(TaskManagerOptions.BIND_HOST, InetAddress.getLoopbackAddress().getHostAddress());
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
    LocalCluster cluster = new LocalCluster(slots, new CompletableFuture<>(), true, true);
    cluster.startRequested.set(true);
    cluster.miniCluster.complete(startMiniCluster(slots));
    active = cluster;
    return cluster;
  }

  /**
   * A cluster for the jobs of one command on this thread (a run's job, a SQL script's statements),
   * not shared; null where a job does not start a local MiniCluster of its own: a shared cluster is
   * open, or Flink's context environment submits elsewhere ({@code flink run}, a test's
   * MiniCluster). A local environment starts a MiniCluster for every job, once the job is
   * submitted, after planning; this one starts at {@link #startInBackground()} or at the first
   * submission, serves every job of the command, and is stopped by {@link #close()}, leaving no
   * threads or working directories behind. Callers start it as soon as a job is known to follow, so
   * that the start overlaps with planning: a run once its input is valid and lineage holds no
   * commit it could reproduce (else once the skip is ruled out), a SQL statement once it is parsed
   * and validated. So a no-op rerun, bad input, or a statement without a job start nothing; a query
   * refused while it is planned pays for a start it did not need.
   *
   * @param parallelism the jobs' parallelism, also the task slots; 0 or less: the local default,
   *     one per core. Operators with a larger parallelism (a source that infers one from its
   *     splits) run in turns, as a batch job does on a cluster of that size.
   */
  public static LocalCluster forCommand(int parallelism) {
    if (active != null || !startsLocalMiniCluster()) {
      return null;
    }
    int slots = parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
    return new LocalCluster(slots, new CompletableFuture<>(), true, false);
  }

  /** Whether a job submitted from this thread would start a MiniCluster of its own. */
  static boolean startsLocalMiniCluster() {
    // Flink's own local environment only: `flink run -t local` gives a context environment whose
    // target says "local" too, and whose settings (-p, the cluster's configuration) must apply.
    return StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment;
  }

  /**
   * Starts this command's cluster on a background thread, once; a job submitted meanwhile waits for
   * it. No effect on a shared cluster, which is running already.
   */
  public void startInBackground() {
    if (shared || !startRequested.compareAndSet(false, true)) {
      return;
    }
    Thread starter =
        new Thread(
            () -> {
              try {
                miniCluster.complete(startMiniCluster(slots));
              } catch (Throwable e) {
                miniCluster.completeExceptionally(e);
              }
            },
            "floe-local-cluster-start");
    starter.setDaemon(true);
    starter.start();
  }

  private static MiniCluster startMiniCluster(int slots) {
    Configuration conf = new Configuration();
    bindToLoopback(conf);
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
      STARTED.incrementAndGet();
      cluster.start();
    } catch (Exception e) {
      cluster.closeAsync();
      throw new IllegalStateException("Cannot start a local Flink cluster: " + e.getMessage(), e);
    }
    return cluster;
  }

  /** Whether this handle's MiniCluster has started and is not stopped yet. */
  boolean running() {
    MiniCluster started = startedCluster();
    return started != null && started.isRunning();
  }

  /** This handle's MiniCluster once its start has finished, else null. */
  MiniCluster startedCluster() {
    return miniCluster.isCompletedExceptionally() ? null : miniCluster.getNow(null);
  }

  /** How many MiniClusters this class has started in this JVM. */
  static int clustersStarted() {
    return STARTED.get();
  }

  /** How many of them {@link #close()} has stopped. */
  static int clustersStopped() {
    return STOPPED.get();
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
    if (!shared && !conf.contains(CoreOptions.DEFAULT_PARALLELISM)) {
      conf.set(CoreOptions.DEFAULT_PARALLELISM, slots); // as a local environment: one per slot
    }
    return new StreamExecutionEnvironment(
        new SharedExecutorLoader(), conf, Thread.currentThread().getContextClassLoader());
  }

  /**
   * Stops the cluster if this handle owns it, and waits for it to stop, so that its threads and
   * working directories are gone before the process exits. A command's cluster still starting (its
   * run failed before the job was submitted) is waited for and stopped; one that failed to start,
   * or a failure to stop it, is logged, not thrown, so the run's own outcome is what is reported.
   */
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
    if (!startRequested.get()) {
      return; // a command's cluster whose job never ran: nothing was started
    }
    try {
      miniCluster.join().closeAsync().get(60, TimeUnit.SECONDS);
      STOPPED.incrementAndGet();
    } catch (Exception e) {
      if (shared) {
        throw new IllegalStateException(
            "Cannot stop the local Flink cluster: " + e.getMessage(), e);
      }
      LOG.warn("Cannot stop the local Flink cluster of a command: {}", e.toString());
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
      // The stream graph, not a job graph, as Flink's local executor submits it: Flink 2's
      // adaptive batch scheduler then optimises joins at run time (broadcast, skew).
      StreamGraph streamGraph = PipelineExecutorUtils.getStreamGraph(pipeline, conf);
      streamGraph.serializeUserDefinedInstances();
      startInBackground(); // a command's cluster whose start was not requested yet
      return miniCluster.thenCompose(
          cluster ->
              cluster
                  .submitJob(streamGraph)
                  .thenApply(
                      submitted ->
                          new MiniClusterJobClient(
                              submitted.getJobID(),
                              cluster,
                              classLoader,
                              MiniClusterJobClient.JobFinalizationBehavior.NOTHING)));
    }
  }
}
