package dev.floe.it.spark;

import dev.floe.it.servers.ChildProcess;
import dev.floe.it.servers.ServerPaths;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Apache Spark 4 in local mode with Iceberg's Spark runtime, in its own JVM and classpath
 * (test-servers/spark: its Scala, Netty, Jackson and Parquet clash with Flink's), bound to
 * 127.0.0.1 with its UI off, driven line by line (SparkLineDriver) and stopped by its pid. Rows
 * come back in {@link dev.floe.testservers.spark.CanonicalValue}'s text form.
 */
public final class SparkEngine implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);
  private static final String EOF = "\u0000eof";

  /** What {@code spark-submit} adds for Java 17 (Spark's JavaModuleOptions). */
  private static final List<String> JVM_FLAGS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.regex=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  private final Process process;
  private final Writer requests;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final Path log;
  private final Duration startUp;
  private final AtomicInteger catalogs = new AtomicInteger();

  private SparkEngine(Process process, Path log, long startNanos) {
    this.process = process;
    this.log = log;
    this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  answers.add(line);
                }
              } catch (IOException e) {
                // the process went away: EOF below
              }
              answers.add(EOF);
            },
            "spark-answers");
    reader.setDaemon(true);
    reader.start();
    String ready;
    try {
      ready = next(START_TIMEOUT, "READY");
    } catch (RuntimeException e) {
      close(); // no answer in time, or it exited: stopped by its pid, not left running
      throw e;
    }
    if (!ready.startsWith("READY")) {
      close();
      throw new IllegalStateException("Cannot start Spark: it answered '" + ready + "'");
    }
    this.startUp = Duration.ofNanos(System.nanoTime() - startNanos);
    System.out.printf(
        "spark: pid %d ready after %d ms (Spark itself: %s), log %s%n",
        process.pid(), startUp.toMillis(), ready.substring("READY ".length()), log);
  }

  /** Starts Spark with no catalog of its own; {@link #catalog} adds them. */
  public static SparkEngine start() {
    Path dir = ServerPaths.workDir("spark");
    Path log = dir.resolve("spark.log");
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.add("-Xmx768m");
    command.addAll(JVM_FLAGS);
    command.add("-Djava.io.tmpdir=" + dir);
    command.add("-Dlog4j2.configurationFile=classpath:floe-spark-log4j2.properties");
    command.add("-cp");
    command.add(
        ServerPaths.required("floe.spark.jar")
            + java.io.File.pathSeparator
            + ServerPaths.classpath("floe.spark.classpath"));
    command.add("dev.floe.testservers.spark.SparkLineDriver");
    long started = System.nanoTime();
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .directory(dir.toFile());
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      builder.environment().put("SPARK_LOCAL_HOSTNAME", "localhost");
      return new SparkEngine(builder.start(), log, started);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start Spark: " + command.get(0), e);
    }
  }

  /** From the start of the JVM until Spark answered READY. */
  public Duration startUp() {
    return startUp;
  }

  public long pid() {
    return process.pid();
  }

  /** A catalog name not used in this Spark yet (Spark cannot reconfigure a loaded catalog). */
  public String newCatalogName() {
    return "floe" + catalogs.incrementAndGet();
  }

  /**
   * Registers an Iceberg catalog (Iceberg catalog properties, as Floe's config gives them) under
   * {@code name}, which must be the name Floe uses too (a JDBC catalog keys its tables by it).
   * Spark's table cache is off: every query sees the head.
   */
  public void catalog(String name, Map<String, String> properties) {
    StringBuilder request = new StringBuilder("CATALOG ").append(name);
    properties.forEach(
        (key, value) -> {
          if (key.contains(" ") || value.contains(" ") || value.contains("\n")) {
            throw new IllegalArgumentException("Cannot pass catalog property with a space: " + key);
          }
          request.append(' ').append(key).append('=').append(value);
        });
    request.append(" cache-enabled=false");
    Answer answer = ask(request.toString());
    if (answer.error() != null) {
      throw new IllegalStateException("Cannot add Spark catalog: " + answer.error());
    }
  }

  /**
   * Runs a statement that must succeed and returns its rows (canonical forms), in Spark's order.
   */
  public List<String> sql(String statement) {
    Answer answer = ask("SQL " + statement.replace('\n', ' '));
    if (answer.error() != null) {
      throw new IllegalStateException(
          "Spark failed on '" + statement + "': " + answer.error() + "\n" + logTail());
    }
    return answer.rows();
  }

  /** Runs a statement that must fail and returns Spark's one-line error. */
  public String failingSql(String statement) {
    Answer answer = ask("SQL " + statement.replace('\n', ' '));
    if (answer.error() == null) {
      throw new IllegalStateException(
          "Spark accepted '" + statement + "' with " + answer.rows().size() + " rows");
    }
    return answer.error();
  }

  /** One answer: rows and then OK, or ERR. */
  public record Answer(List<String> rows, String error) {}

  private synchronized Answer ask(String request) {
    try {
      requests.write(request);
      requests.write('\n');
      requests.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot send to Spark (pid " + process.pid() + ")", e);
    }
    List<String> rows = new ArrayList<>();
    while (true) {
      String line = next(ANSWER_TIMEOUT, request);
      if (line.startsWith("ROW ")) {
        rows.add(line.substring(4));
      } else if (line.startsWith("OK ")) {
        return new Answer(rows, null);
      } else if (line.startsWith("ERR ")) {
        return new Answer(rows, line.substring(4));
      } else {
        throw new IllegalStateException("Cannot read Spark's answer '" + line + "' to " + request);
      }
    }
  }

  private String next(Duration timeout, String waitingFor) {
    try {
      String line = answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (line == null) {
        throw new IllegalStateException(
            "Cannot get Spark's answer to '" + waitingFor + "' within " + timeout + logTail());
      }
      if (line.equals(EOF)) {
        throw new IllegalStateException(
            "Cannot get Spark's answer to '" + waitingFor + "': it exited\n" + logTail());
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Spark", e);
    }
  }

  private String logTail() {
    try {
      String text = Files.exists(log) ? Files.readString(log) : "";
      return "\n--- last lines of "
          + log
          + " ---\n"
          + text.substring(Math.max(0, text.length() - 4000));
    } catch (IOException e) {
      return "";
    }
  }

  /** QUIT, then SIGTERM and SIGKILL by pid if Spark does not stop by itself. */
  @Override
  public void close() {
    try {
      requests.write("QUIT\n");
      requests.flush();
    } catch (IOException e) {
      // already gone
    }
    try {
      if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroy();
        if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    System.out.printf("spark: stopped pid %d%n", process.pid());
  }
}
