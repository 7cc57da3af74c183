package dev.floe.flink.session;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Collects a result too large to arrive without the job's result socket from a job on a command's
 * cluster, in a JVM of its own (started with the options under test); prints the row count and sum,
 * exits 1 when the rows do not arrive within 90 s.
 */
public final class LargeResultProbe {
  private LargeResultProbe() {}

  public static void main(String[] args) throws Exception {
    long rows = Long.parseLong(args[0]);
    try (LocalCluster cluster = LocalCluster.forCommand(1)) {
      StreamExecutionEnvironment env =
          FlinkSessions.batchEnvironment(1, new Configuration(), cluster);
      CompletableFuture<List<Long>> collected =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return env.fromSequence(1, rows).executeAndCollect((int) rows + 1);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      try {
        List<Long> result = collected.get(90, TimeUnit.SECONDS);
        System.out.println(result.size() + " " + result.stream().mapToLong(Long::longValue).sum());
      } catch (TimeoutException e) {
        // Exit at once: closing the cluster under a job that hangs would wait for it.
        System.out.println("no result within 90 s");
        System.exit(1);
      }
    }
    System.exit(0);
  }
}
