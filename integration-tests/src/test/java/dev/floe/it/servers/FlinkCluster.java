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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink 2.1 cluster as Flink's own scripts start it, every listener on 127.0.0.1: a session
 * cluster ({@link #start}: a JobManager, {@code StandaloneSessionClusterEntrypoint}, and a
 * TaskManager, {@code TaskManagerRunner}, as separate JVMs) or an application cluster ({@link
 * #application}: the JobManager runs one program from its {@code usrlib/}, as a Kubernetes
 * FlinkDeployment's does, and exits when it ends). Its classpath is Flink's jars from Maven plus
 * exactly the jars Floe says belong in Flink's {@code lib/}
 * (flink-jobs/target/cluster-lib-classpath.txt, the same list docker/Dockerfile copies), so a
 * missing lib jar fails here as it would on a real cluster.
 */
public final class FlinkCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

  private final Path dir;
  private final int restPort;
  private final int rpcPort = FreePort.pick();
  private final List<ChildProcess> processes = new ArrayList<>();

  private FlinkCluster(Path dir, int restPort) {
    this.dir = dir;
    this.restPort = restPort;
  }

  /**
   * A session cluster, ready for jobs submitted over REST.
   *
   * @param environment the JobManager's and TaskManager's environment (catalog secrets, the way a
   *     Kubernetes Secret or a systemd unit provides them)
   */
  public static FlinkCluster start(Map<String, String> environment) {
    FlinkCluster cluster = new FlinkCluster(ServerPaths.workDir("flink-session"), FreePort.pick());
    try {
      cluster.launch(environment);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * An application cluster running one program, as the Kubernetes operator starts a
   * FlinkDeployment's: {@code jar} is the cluster's {@code usrlib/}, and the JobManager runs {@code
   * entryClass} with {@code args}, then shuts the cluster down ({@link #awaitApplicationEnd}).
   *
   * @param flinkConfiguration settings added to the cluster's configuration, as a FlinkDeployment's
   *     {@code spec.flinkConfiguration}
   */
  public static FlinkCluster application(
      Map<String, String> environment,
      Map<String, String> flinkConfiguration,
      Path jar,
      String entryClass,
      List<String> args) {
    FlinkCluster cluster =
        new FlinkCluster(ServerPaths.workDir("flink-application"), FreePort.pick());
    try {
      Path usrlib = cluster.dir.resolve("usrlib");
      Files.createDirectories(usrlib);
      Files.copy(jar, usrlib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      Map<String, String> withHome = new HashMap<>(environment);
      // Flink finds usrlib/ next to the lib/ directory this variable names, as in its image.
      withHome.put("FLINK_LIB_DIR", cluster.dir.resolve("lib").toString());
      List<String> program = new ArrayList<>(List.of("--job-classname", entryClass));
      program.addAll(args);
      cluster.writeConfig(flinkConfiguration);
      cluster.processes.add(
          cluster.startJvm(
              "flink-jobmanager",
              "GET_JM_RESOURCE_PARAMS",
              "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint",
              program,
              withHome));
      cluster.processes.add(
          cluster.startJvm(
              "flink-taskmanager",
              "GET_TM_RESOURCE_PARAMS",
              "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
              List.of(),
              withHome));
    } catch (IOException e) {
      cluster.close();
      throw new UncheckedIOException("Cannot prepare the application cluster", e);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * Waits for an application cluster's JobManager to exit once its program has ended, then stops
   * the TaskManager.
   *
   * @return the JobManager's exit code: 0 when the program succeeded
   */
  public int awaitApplicationEnd(Duration timeout) {
    ChildProcess jobManager = processes.get(0);
    try {
      if (!jobManager.waitForExit(timeout)) {
        throw new IllegalStateException(
            "The application did not end within " + timeout + "\n" + jobManager.logTail());
      }
      return jobManager.exitValue();
    } finally {
      close();
    }
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

  /** The TaskManager's log: where a job's committer logs the outcome of a detached run. */
  public String taskManagerLog() {
    try {
      return Files.readString(processes.get(processes.size() - 1).log());
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
    writeConfig(Map.of());
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

  private void writeConfig(Map<String, String> extra) {
    Path conf = confDir();
    try {
      Files.createDirectories(conf);
      Files.createDirectories(dir.resolve("upload"));
      // One line per key: a setting in extra replaces the cluster's own.
      StringBuilder config = new StringBuilder();
      config()
          .lines()
          .filter(line -> !extra.containsKey(line.substring(0, line.indexOf(':'))))
          .forEach(line -> config.append(line).append('\n'));
      extra.forEach((key, value) -> config.append(key).append(": ").append(value).append('\n'));
      Files.writeString(conf.resolve("config.yaml"), config);
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
    // Before extraArgs: an application's program arguments come last.
    command.addAll(Arrays.asList(resources.get(1).trim().split("\\s+")));
    command.addAll(extraArgs);
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
