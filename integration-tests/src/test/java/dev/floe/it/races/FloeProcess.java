package dev.floe.it.races;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.it.BinFloe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code bin/floe} started in the background, the way a scheduler starts overlapping tasks: its
 * own JVM, stdout and stderr to files. It logs at INFO on stderr (FLOE_LOG_LEVEL), so the test sees
 * when the run's Flink source planned its scan of a source table and which snapshot it read —
 * Iceberg's own "Scanning table ... snapshot N" line, not Floe's lineage.
 */
final class FloeProcess {
  private static final long TIMEOUT_SECONDS = 300;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final List<String> args;
  private final Process process;
  private final Path out;
  private final Path err;
  private final long t0;
  private final long startedMillis;
  private volatile long scanSeenMillis = -1;
  private volatile long commitSeenMillis = -1;
  private volatile long endedMillis = -1;
  private int exitCode = -1;

  private FloeProcess(
      String name, List<String> args, Process process, Path out, Path err, long t0, long started) {
    this.name = name;
    this.args = args;
    this.process = process;
    this.out = out;
    this.err = err;
    this.t0 = t0;
    this.startedMillis = started;
    process.onExit().thenRun(() -> endedMillis = millisSince(t0));
    Thread watcher = new Thread(this::watch, "watch-" + name);
    watcher.setDaemon(true);
    watcher.start();
  }

  /**
   * Notes when the process's log first shows its scan of the staging table and Iceberg's "Committed
   * snapshot" line (polled every 100 ms, so the times are within 0.1 s).
   */
  private void watch() {
    try {
      while (true) {
        boolean alive = process.isAlive();
        String log = err();
        if (scanSeenMillis < 0 && log.contains("Scanning table " + RaceHome.STAGING_SCANNED)) {
          scanSeenMillis = millisSince(t0);
        }
        if (commitSeenMillis < 0 && log.contains("SnapshotProducer - Committed snapshot")) {
          commitSeenMillis = millisSince(t0);
        }
        if (!alive) {
          return;
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException | UncheckedIOException e) {
      // the test is over
    }
  }

  /**
   * Starts {@code bin/floe args --home home} in {@code workDir}; times are in ms since {@code t0}
   * (System.nanoTime of the scenario's start).
   */
  static FloeProcess start(String name, Path workDir, Path home, long t0, String... args) {
    List<String> command = new ArrayList<>();
    command.add(BinFloe.repoRoot().resolve("bin/floe").toString());
    command.addAll(List.of(args));
    command.add("--home");
    command.add(home.toString());
    try {
      Path out = Files.createTempFile(workDir, name + "-", ".out");
      Path err = Files.createTempFile(workDir, name + "-", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().remove("FLOE_HOME");
      builder.environment().put("FLOE_SKIP_BUILD", "1");
      builder.environment().put("FLOE_CDS", "0"); // no archive dumps in timing races
      builder.environment().put("FLOE_LOG_LEVEL", "INFO");
      long started = millisSince(t0);
      return new FloeProcess(name, List.of(args), builder.start(), out, err, t0, started);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start bin/floe " + String.join(" ", args), e);
    }
  }

  static long millisSince(long t0) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }

  String name() {
    return name;
  }

  /**
   * Waits until Iceberg logged this process's scan of {@code table} (as the catalog names it, e.g.
   * floe.sales.staging_orders) and returns the snapshot id it scanned; -1 when the process ended
   * without scanning it.
   */
  long awaitScan(String table) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      Set<Long> scanned = scannedSnapshots(table);
      if (!scanned.isEmpty()) {
        return scanned.iterator().next();
      }
      if (!process.isAlive()) {
        return -1;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(name + " did not scan " + table + " in " + TIMEOUT_SECONDS);
  }

  /** Waits until {@code text} occurs {@code times} times in the process's log (or it ended). */
  void awaitLog(String text, int times) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline && process.isAlive()) {
      String log = err();
      int found = 0;
      for (int i = log.indexOf(text); i >= 0; i = log.indexOf(text, i + 1)) {
        found++;
      }
      if (found >= times) {
        return;
      }
      Thread.sleep(20);
    }
  }

  /** Every snapshot of {@code table} this process logged a scan of, in order. */
  Set<Long> scannedSnapshots(String table) {
    Pattern scan =
        Pattern.compile("Scanning table " + Pattern.quote(table) + " snapshot (-?\\d+) created");
    Set<Long> snapshots = new LinkedHashSet<>();
    Matcher m = scan.matcher(err());
    while (m.find()) {
      snapshots.add(Long.parseLong(m.group(1)));
    }
    return snapshots;
  }

  /** Waits for the exit; returns the exit code. */
  int await() throws InterruptedException {
    if (exitCode < 0) {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "bin/floe " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
      }
      exitCode = process.exitValue();
      process.onExit().join(); // the end time is set
    }
    return exitCode;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Stops a process still running (after a failed assertion), by its own handle. */
  void kill() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  int exitCode() {
    return exitCode;
  }

  long startedMillis() {
    return startedMillis;
  }

  long scanSeenMillis() {
    return scanSeenMillis;
  }

  long commitSeenMillis() {
    return commitSeenMillis;
  }

  long endedMillis() {
    return endedMillis;
  }

  String out() {
    return read(out);
  }

  String err() {
    return read(err);
  }

  /** The one-line error Floe prints ("floe: ..."), or "". */
  String failure() {
    return err().lines().filter(line -> line.startsWith("floe:")).reduce((a, b) -> b).orElse("");
  }

  /** The JSON a {@code --json} command printed on success, or null. */
  JsonNode json() {
    String text = out().trim();
    if (text.isEmpty()) {
      return null;
    }
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  String describe() {
    return String.format(
        "%s: bin/floe %s -> exit %d%n--- stdout%n%s%n--- stderr (floe lines)%n%s",
        name,
        String.join(" ", args),
        exitCode,
        out(),
        String.join(
            "\n",
            err()
                .lines()
                .filter(l -> l.startsWith("floe:") || l.contains("dev.floe") || l.contains("Floe"))
                .toList()));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
