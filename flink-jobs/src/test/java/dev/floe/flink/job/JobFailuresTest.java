package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobFailuresTest {

  @Test
  void theRootCauseIsShownWithTheMessageThatSaysWhatFailedToConnect() {
    ConnectException root = new ConnectException("Connection refused");
    IOException sdk =
        new IOException(
            "Unable to execute HTTP request: Connect to 127.0.0.1:9000 [/127.0.0.1] failed:"
                + " Connection refused",
            root);
    RuntimeException wrapper = new RuntimeException(new UncheckedIOException(sdk));
    RuntimeException flink = new RuntimeException("Job execution failed.", wrapper);

    assertThat(JobFailures.rootMessage(flink)).isEqualTo("Connection refused");
    assertThat(JobFailures.rootMessageInContext(flink))
        .isEqualTo(
            "Unable to execute HTTP request: Connect to 127.0.0.1:9000 [/127.0.0.1] failed:"
                + " Connection refused");
  }

  @Test
  void wrappersThatOnlyRepeatTheRootWithAClassNameAreNotContext() {
    IllegalStateException root = new IllegalStateException("disk full");
    RuntimeException wrapper = new RuntimeException(root); // message: "java.lang...: disk full"

    assertThat(JobFailures.rootMessageInContext(new RuntimeException("failed", wrapper)))
        .isEqualTo("disk full");
  }

  @Test
  void aNumberFormatErrorUnderAnExceptionFloeThrewIsNotTheQuerys() {
    Throwable lineage =
        catchThrowable(
            () -> Lineage.fromSummary(Map.of(LineageKeys.RUN_ID, "r", LineageKeys.ROWS, "many")));
    RuntimeException job = raisedByFlink(new RuntimeException("Job execution failed.", lineage));

    assertThat(lineage).hasMessageContaining("floe.rows is 'many'");
    assertThat(JobFailures.raisedByTheQuery(job)).isEmpty();
  }

  @Test
  void anEvaluationErrorRaisedOutsideFloeIsTheQuerys() {
    Throwable division = catchThrowable(() -> Math.floorDiv(1, zero()));
    RuntimeException job =
        raisedByFlink(
            new RuntimeException(
                "Job execution failed.",
                raisedByFlink(new RuntimeException("task failed", division))));

    assertThat(JobFailures.raisedByTheQuery(job)).contains("/ by zero");
  }

  /** {@code wrapper} as if Flink had thrown it: one of Floe's own stops the search. */
  private static RuntimeException raisedByFlink(RuntimeException wrapper) {
    wrapper.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("org.apache.flink.runtime.taskmanager.Task", "run", "Task.java", 1)
        });
    return wrapper;
  }

  private static int zero() {
    return 0;
  }
}
