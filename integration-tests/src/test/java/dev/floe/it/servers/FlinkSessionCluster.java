package dev.floe.it.servers;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink 2.1 session cluster as Flink's own scripts start it: a JobManager ({@code
 * StandaloneSessionClusterEntrypoint}) and a TaskManager ({@code TaskManagerRunner}) as separate
 * JVMs, every listener on 127.0.0.1. Its classpath is Flink's jars from Maven plus exactly the jars
 * Floe says belong in Flink's {@code lib/} (flink-jobs/target/cluster-lib-classpath.txt, the same
 * list docker/Dockerfile copies), so a missing lib jar fails here as it would on a real cluster.
 */
public final class FlinkSessionCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

  private final Path dir;
  private final int restPort;
  private final int rpcPort = FreePort.pick();
  private final List<ChildProcess> processes = new ArrayList<>();

  private FlinkSessionCluster(Path dir, int restPort) {
    this.dir = dir;
    this.restPort = restPort;
  }

  /**
   * @param environment the JobManager's and TaskManager's environment (catalog secrets, the way a
   *     Kubernetes Secret or a systemd unit provides them)
   */
  public static FlinkSessionCluster start(Map<String, String> environment) {
    FlinkSessionCluster cluster =
        new FlinkSessionCluster(ServerPaths.workDir("flink-session"), FreePort.pick());
    try {
      cluster.launch(environment);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  public String restUrl() {
    return "http://127.0.0.1:" + restPort;
  }

  /** {@code host:port} for {@code flink run -m}. */
  public String address() {
    return "127.0.0.1:" + restPort;
  }

  /** The JobManager's REST and RPC ports (the others are chosen by Flink). */
  public List<Integer> ports() {
    return List.of(restPort, rpcPort);
  }

  public Path confDir() {
    return dir.resolve("conf");
  }

  /** The JVM classpath of the cluster: Flink plus Floe's lib/ jars. */
  public static String classpath() {
    return ServerPaths.classpath("floe.flink-cluster.classpath")
        + File.pathSeparator
        + ServerPaths.classpath("floe.cluster-lib.classpath");
  }

  public boolean jobManagerAlive() {
    return !processes.isEmpty() && processes.get(0).isAlive();
  }

  /** The JobManager's log: what a job's main printed when it was submitted over REST. */
  public String jobManagerLog() {
    try {
      return Files.readString(processes.get(0).log());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    // TaskManager first, so the JobManager does not spend the shutdown re-requesting it.
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
  }

  private void launch(Map<String, String> environment) {
    Path conf = confDir();
    try {
      Files.createDirectories(conf);
      Files.createDirectories(dir.resolve("upload"));
      Files.writeString(conf.resolve("config.yaml"), config());
      Files.writeString(
          conf.resolve("log4j.properties"),
          String.join(
              "\n",
              "rootLogger.level = INFO",
              "rootLogger.appenderRef.console.ref = Console",
              "appender.console.type = Console",
              "appender.console.name = Console",
              "appender.console.layout.type = PatternLayout",
              "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
              ""));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the Flink configuration in " + conf, e);
    }
    processes.add(
        startJvm(
            "flink-jobmanager",
            "GET_JM_RESOURCE_PARAMS",
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
            List.of("--executionMode", "cluster"),
            environment));
    processes.add(
        startJvm(
            "flink-taskmanager",
            "GET_TM_RESOURCE_PARAMS",
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
            List.of(),
            environment));
    awaitTaskManager();
  }

  private String config() {
    return String.join(
        "\n",
        "jobmanager.rpc.address: 127.0.0.1",
        "jobmanager.rpc.port: " + rpcPort,
        "jobmanager.bind-host: 127.0.0.1",
        "taskmanager.bind-host: 127.0.0.1",
        "taskmanager.host: 127.0.0.1",
        "taskmanager.rpc.port: 0",
        "blob.server.port: 0",
        "rest.address: 127.0.0.1",
        "rest.bind-address: 127.0.0.1",
        "rest.port: " + restPort,
        "jobmanager.memory.process.size: 768m",
        "taskmanager.memory.process.size: 1280m",
        "taskmanager.numberOfTaskSlots: 2",
        "parallelism.default: 1",
        "cluster.registration.error-delay: 500 ms",
        "web.upload.dir: " + dir.resolve("upload"),
        "");
  }

  /** Starts one Flink process the way bin/jobmanager.sh and bin/taskmanager.sh do. */
  private ChildProcess startJvm(
      String name,
      String resourceCommand,
      String mainClass,
      List<String> extraArgs,
      Map<String, String> environment) {
    List<String> resources = resourceParameters(resourceCommand);
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.addAll(jvmFlags());
    command.addAll(Arrays.asList(resources.get(0).trim().split("\\s+")));
    command.add("-Dlog4j.configurationFile=" + confDir().resolve("log4j.properties"));
    command.add("-cp");
    command.add(classpath());
    command.add(mainClass);
    command.add("--configDir");
    command.add(confDir().toString());
    command.addAll(extraArgs);
    command.addAll(Arrays.asList(resources.get(1).trim().split("\\s+")));
    return ChildProcess.start(name, command, environment, dir.resolve(name + ".log"));
  }

  /** BashJavaUtils prints the JVM memory flags and the matching dynamic properties. */
  private List<String> resourceParameters(String resourceCommand) {
    List<String> command =
        List.of(
            ChildProcess.java(),
            "-cp",
            classpath(),
            "org.apache.flink.runtime.util.bash.BashJavaUtils",
            resourceCommand,
            "--configDir",
            confDir().toString());
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(
            "Cannot compute Flink's memory settings (" + resourceCommand + "):\n" + output);
      }
      List<String> results =
          output
              .lines()
              .filter(line -> line.startsWith(RESULT_PREFIX))
              .map(line -> line.substring(RESULT_PREFIX.length()))
              .toList();
      if (results.size() != 2) {
        throw new IllegalStateException(
            "Cannot read Flink's memory settings (" + resourceCommand + "):\n" + output);
      }
      return results;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run BashJavaUtils", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting Flink", e);
    }
  }

  private void awaitTaskManager() {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      for (ChildProcess process : processes) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "Cannot start the Flink session cluster: a process exited\n" + process.logTail());
        }
      }
      try {
        HttpResponse<String> overview =
            http.send(
                HttpRequest.newBuilder(URI.create(restUrl() + "/overview")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (overview.statusCode() == 200 && overview.body().contains("\"taskmanagers\":1")) {
          System.out.printf("flink-session: ready at %s%n", restUrl());
          return;
        }
      } catch (IOException notYet) {
        // The REST endpoint is not up yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting Flink", e);
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting Flink", e);
      }
    }
    throw new IllegalStateException(
        "Cannot start the Flink session cluster: no TaskManager after "
            + START_TIMEOUT
            + "\n"
            + processes.get(processes.size() - 1).logTail());
  }

  public static List<String> jvmFlags() {
    return Arrays.asList(System.getProperty("floe.jvm.flags", "").trim().split("\\s+"));
  }
}
