package dev.floe.flink.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.properties.PropertiesConfigurationFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/floe's logging (bin/log4j2-cli.properties) at the default level: the terminal shows Floe's
 * own lines only; what libraries log (Iceberg's retry of a commit after CommitFailedException, with
 * its stack trace; the AWS SDK's retries) goes to the log file, and no log line shows a password.
 */
class BinFloeLoggingTest {
  private static final Path CONFIG = Path.of("..", "bin", "log4j2-cli.properties");

  @TempDir Path home;

  private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
  private PrintStream stderr;
  private LoggerContext context;
  private Path logFile;

  @BeforeEach
  void startBinFloesLogging() throws Exception {
    logFile = home.resolve("logs/floe.log");
    System.setProperty("floe.log.file", logFile.toString());
    // The console appender takes System.err when it starts.
    stderr = System.err;
    System.setErr(new PrintStream(terminal, true, StandardCharsets.UTF_8));
    context = new LoggerContext("bin-floe-" + UUID.randomUUID());
    ConfigurationSource source = ConfigurationSource.fromUri(CONFIG.toAbsolutePath().toUri());
    context.start(new PropertiesConfigurationFactory().getConfiguration(context, source));
  }

  @AfterEach
  void stopLogging() {
    context.stop();
    System.setErr(stderr);
    System.clearProperty("floe.log.file");
  }

  @Test
  void icebergsCommitRetryWarningGoesToTheLogFileAndNotToTheTerminal() throws Exception {
    context
        .getLogger("org.apache.iceberg.util.Tasks")
        .warn(
            "Retrying task after failure: sleepTimeMs=112 Commit failed",
            new CommitFailedException("Cannot commit sales.fact_orders: metadata location moved"));
    context.getLogger("software.amazon.awssdk.retry").warn("Retrying S3 request, attempt 2");

    assertThat(terminalText()).isEmpty();
    assertThat(logText())
        .contains("WARN", "org.apache.iceberg.util.Tasks", "Retrying task after failure")
        .contains("CommitFailedException: Cannot commit sales.fact_orders", "\tat ")
        .contains("Retrying S3 request, attempt 2");
  }

  @Test
  void floesOwnWarningsStillReachTheTerminalAndTheLogFile() throws Exception {
    context.getLogger("dev.floe.flink.commit.SliceCommitter").warn("Re-committing on the new head");

    assertThat(terminalText()).contains("Re-committing on the new head").doesNotContain("\tat ");
    assertThat(logText()).contains("Re-committing on the new head");
  }

  @Test
  void noLogLineShowsAPasswordEvenInAStackTrace() throws Exception {
    String password = "pw-" + UUID.randomUUID();
    String uri = "jdbc:postgresql://db:5432/floe?user=floe&password=" + password;
    context
        .getLogger("org.apache.iceberg.jdbc.JdbcCatalog")
        .warn("Failed to connect: " + uri, new IllegalStateException("Failed to connect: " + uri));
    context.getLogger("dev.floe.flink.job.SliceJob").warn("Opening " + uri);

    assertThat(logText())
        .doesNotContain(password)
        .contains("Failed to connect: jdbc:postgresql://db:5432/floe?user=floe&password=******")
        .contains("IllegalStateException: Failed to connect: jdbc:postgresql://db:5432/floe");
    assertThat(terminalText()).doesNotContain(password).contains("password=******");
  }

  private String terminalText() {
    System.err.flush();
    return terminal.toString(StandardCharsets.UTF_8);
  }

  private String logText() throws Exception {
    context.stop(); // flushes and closes the file
    return Files.readString(logFile);
  }
}
