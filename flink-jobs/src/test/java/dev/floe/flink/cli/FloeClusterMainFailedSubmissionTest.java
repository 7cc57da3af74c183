package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a failed cluster submission tells the cluster. */
class FloeClusterMainFailedSubmissionTest {
  private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

  @TempDir Path home;

  /**
   * ClusterRunFailedException's message is the whole command line. On a cluster that message goes
   * to the JobManager log, the REST answer of /jars/run and the operator's status (all readable by
   * anyone who can read the FlinkDeployment), so a secret given as {@code --catalog-property} on
   * the submission leaks there, although bin/floe itself never prints its arguments.
   */
  @Test
  void aFailedSubmissionDoesNotEchoACatalogPropertyValue() {
    String missing = home.resolve("jobs/missing.yaml").toString();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    Throwable thrown =
        catchThrowable(
            () ->
                FloeClusterMain.run(
                    new String[] {
                      "run",
                      missing,
                      "--slice",
                      "2026-10-03",
                      "--home",
                      home.toString(),
                      "--catalog-property",
                      "s3.secret-access-key=" + SECRET
                    },
                    new PrintWriter(out, true),
                    new PrintWriter(err, true)));

    assertThat(thrown).isInstanceOf(ClusterRunFailedException.class);
    // bin/floe's own output keeps the secret out; the cluster's exception must too.
    assertThat(out.toString() + err.toString()).doesNotContain(SECRET);
    assertThat(thrown.getMessage()).doesNotContain(SECRET);
  }
}
