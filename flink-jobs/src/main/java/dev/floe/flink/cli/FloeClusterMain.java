package dev.floe.flink.cli;

import java.io.PrintWriter;
import java.util.Arrays;

/**
 * The entry class for a Flink cluster: REST submission, a FlinkDeployment and a FlinkSessionJob
 * (see {@code ImageLayout.CLUSTER_ENTRY_CLASS}). There {@code main} runs inside the JobManager,
 * where {@link FloeMain}'s {@code System.exit} would stop the JobManager itself. This class returns
 * on success and throws on failure, so the cluster marks the submission failed and stays up.
 */
public final class FloeClusterMain {

  private FloeClusterMain() {}

  public static void main(String[] args) {
    run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
  }

  /** Runs a command line; throws {@link ClusterRunFailedException} when its exit code is not 0. */
  static void run(String[] args, PrintWriter out, PrintWriter err) {
    int code = FloeMain.execute(args, out, err);
    if (code != 0) {
      throw new ClusterRunFailedException(Arrays.asList(args), code);
    }
  }
}
