package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
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
}
