package dev.floe.flink.job;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Flink job like {@code env.execute(name)}, but cancels it ({@link JobClient#cancel()}) once
 * its {@link Deadline} passes, and then waits until it has stopped, so that the caller can tell
 * what the table holds before it answers. The same on the local cluster and under {@code flink run}
 * (attached); a detached submission returns at once and keeps only the job's own gate.
 */
public final class DeadlineExecution {
  private static final Logger LOG = LoggerFactory.getLogger(DeadlineExecution.class);

  /**
   * How long a cancelled job may take to stop: Flink interrupts its tasks at once and kills a task
   * manager whose task has not stopped within {@code task.cancellation.timeout} (3 min).
   */
  public static final Duration STOP_WAIT = Duration.ofMinutes(4);

  private static final Duration ACCUMULATOR_WAIT = Duration.ofSeconds(30);

  private DeadlineExecution() {}

  /** The deadline passed and the job was cancelled. */
  public static final class Cancelled extends Exception {
    private final boolean stopped;
    private final transient Map<String, Object> accumulators;

    Cancelled(boolean stopped, Map<String, Object> accumulators, Throwable cause) {
      super(stopped ? "cancelled" : "cancelled, and still stopping", cause);
      this.stopped = stopped;
      this.accumulators = Collections.unmodifiableMap(new HashMap<>(accumulators));
    }

    /** False when the job had not stopped within {@link #STOP_WAIT} of the cancel. */
    public boolean stopped() {
      return stopped;
    }

    /**
     * The accumulators the job's tasks had reported when it was cancelled: final for the tasks that
     * had finished; empty when the cluster could not tell.
     */
    public Map<String, Object> accumulators() {
      return accumulators;
    }
  }

  /**
   * @return the job's result; null when it was submitted detached
   * @throws Cancelled when the deadline passed first: the job was cancelled
   * @throws Exception what {@code env.execute} throws when the job fails on its own (also when it
   *     failed on its own while being cancelled, e.g. because its gate refused a late commit)
   */
  public static JobExecutionResult execute(
      StreamExecutionEnvironment env, String name, Deadline deadline, Clock clock)
      throws Exception {
    JobClient client = env.executeAsync(name);
    if (!env.getConfiguration().get(DeploymentOptions.ATTACHED)) {
      return null;
    }
    CompletableFuture<JobExecutionResult> result = client.getJobExecutionResult();
    try {
      return result.get(deadline.remainingMillis(clock), TimeUnit.MILLISECONDS);
    } catch (ExecutionException failed) {
      throw unwrapped(failed);
    } catch (TimeoutException pastDeadline) {
      LOG.info("Job {} ({}) {}: cancelling it", client.getJobID(), name, deadline.reason());
      return cancel(client, result);
    }
  }

  private static JobExecutionResult cancel(
      JobClient client, CompletableFuture<JobExecutionResult> result) throws Exception {
    // Read before the cancel: a local cluster no longer hands out a cancelled job's accumulators,
    // and those of the tasks that finished already are final.
    Map<String, Object> accumulators = accumulators(client);
    try {
      client.cancel().get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // It may have finished (or failed) meanwhile; its result says which.
      LOG.info("Cancelling job {}: {}", client.getJobID(), e.toString());
    }
    try {
      return result.get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS); // it finished after all
    } catch (ExecutionException ended) {
      Throwable cause = ExceptionUtils.stripExecutionException(ended);
      if (ExceptionUtils.findThrowable(cause, JobCancellationException.class).isPresent()) {
        throw new Cancelled(true, accumulators, cause);
      }
      throw unwrapped(ended);
    } catch (TimeoutException stillRunning) {
      throw new Cancelled(false, Map.of(), stillRunning);
    }
  }

  /** The job's accumulators as its tasks reported them so far, or none when it cannot tell. */
  private static Map<String, Object> accumulators(JobClient client) {
    try {
      return client.getAccumulators().get(ACCUMULATOR_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.info("Cannot read the accumulators of job {}: {}", client.getJobID(), e.toString());
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return Map.of();
    }
  }

  /** The failure as {@code env.execute} throws it. */
  private static Exception unwrapped(ExecutionException failed) {
    Throwable cause = ExceptionUtils.stripExecutionException(failed);
    if (cause instanceof Error error) {
      throw error;
    }
    return cause instanceof Exception e ? e : failed;
  }
}
