package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server a test started as a child process: its output goes to a log file under {@code target/},
 * it is stopped by its process id, and a failed start shows the end of that log.
 */
public final class ChildProcess implements AutoCloseable {
  private static final Duration STOP_GRACE = Duration.ofSeconds(15);

  private final String name;
  private final Process process;
  private final Path log;
  // A restarted server appends to its old log: only what this process wrote counts.
  private final long logStart;

  private ChildProcess(String name, Process process, Path log, long logStart) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.logStart = logStart;
  }

  public static ChildProcess start(
      String name, List<String> command, Map<String, String> environment, Path log) {
    try {
      Files.createDirectories(log.getParent());
      long logStart = Files.exists(log) ? Files.size(log) : 0;
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().putAll(environment);
      Process process = builder.start();
      System.out.printf("%s: started pid %d, log %s%n", name, process.pid(), log);
      return new ChildProcess(name, process, log, logStart);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start " + name + ": " + command.get(0), e);
    }
  }

  /** The java binary of the JVM running the tests: every server JVM uses the same Java 17. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** Waits until the log contains {@code marker}; fails early when the process dies. */
  public void awaitLogLine(String marker, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (logText().contains(marker)) {
        return;
      }
      failIfDead("before printing '" + marker + "'");
      pause();
    }
    throw new IllegalStateException(
        "Cannot start " + name + ": no '" + marker + "' after " + timeout + "\n" + logTail());
  }

  /** Waits until 127.0.0.1:{@code port} accepts connections. */
  public void awaitPort(int port, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (FreePort.isOpen(port)) {
        return;
      }
      failIfDead("before listening on 127.0.0.1:" + port);
      pause();
    }
    throw new IllegalStateException(
        "Cannot start "
            + name
            + ": 127.0.0.1:"
            + port
            + " closed after "
            + timeout
            + "\n"
            + logTail());
  }

  /** Waits until the process has exited on its own; false when it is still running. */
  public boolean waitForExit(Duration timeout) {
    return waitFor(timeout);
  }

  /** The exit code of a process that has exited. */
  public int exitValue() {
    return process.exitValue();
  }

  /** Kills the process at once (SIGKILL), as a crash or a pulled plug would. */
  public void kill() {
    process.destroyForcibly();
    waitFor(STOP_GRACE);
    System.out.printf("%s: killed pid %d%n", name, process.pid());
  }

  /** Stops the process by its pid: SIGTERM, then SIGKILL after a grace period. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!waitFor(STOP_GRACE)) {
      process.destroyForcibly();
      waitFor(STOP_GRACE);
    }
    System.out.printf("%s: stopped pid %d%n", name, process.pid());
  }

  public String logTail() {
    String text = logText();
    return "--- last lines of "
        + log
        + " ---\n"
        + text.substring(Math.max(0, text.length() - 4000));
  }

  private String logText() {
    try {
      if (!Files.exists(log)) {
        return "";
      }
      byte[] bytes = Files.readAllBytes(log);
      int from = (int) Math.min(logStart, bytes.length);
      return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private void failIfDead(String when) {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "Cannot start "
              + name
              + ": it exited with code "
              + process.exitValue()
              + " "
              + when
              + "\n"
              + logTail());
    }
  }

  private boolean waitFor(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a server", e);
    }
  }
}
