package dev.floe.it.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Iceberg's REST catalog in its own JVM on 127.0.0.1 ({@code LoopbackRestCatalogServer} from the
 * test-servers/rest-catalog module), backed by a SQLite JdbcCatalog. Credentials for its own
 * storage access come from its environment, never from its command line.
 */
public final class RestCatalogServer implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final List<String> command;
  private final Map<String, String> environment;
  private final Path log;
  private final int port;
  private ChildProcess process;

  private RestCatalogServer(
      List<String> command, Map<String, String> environment, Path log, int port) {
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.log = log;
    this.port = port;
  }

  /**
   * @param backend the backend catalog's properties (warehouse, io-impl, s3.endpoint, ...)
   * @param environment REST_BACKEND_* secrets, e.g. REST_BACKEND_S3__SECRET_ACCESS_KEY
   */
  public static RestCatalogServer start(
      Map<String, String> backend, Map<String, String> environment) {
    Path dir = ServerPaths.workDir("rest-catalog");
    int port = FreePort.pick();
    List<String> command = new ArrayList<>();
    command.add(ChildProcess.java());
    command.add("-Xmx384m");
    command.add("-cp");
    command.add(
        ServerPaths.required("floe.rest-catalog.jar")
            + java.io.File.pathSeparator
            + ServerPaths.classpath("floe.rest-catalog.classpath"));
    command.add("dev.floe.testservers.LoopbackRestCatalogServer");
    command.add(Integer.toString(port));
    command.add("uri=jdbc:sqlite:" + dir.resolve("rest-catalog.db"));
    backend.forEach((key, value) -> command.add(key + "=" + value));
    RestCatalogServer server =
        new RestCatalogServer(command, environment, dir.resolve("rest-catalog.log"), port);
    server.launch();
    return server;
  }

  /** Kills the server (SIGKILL), as a crash would; its catalog survives for {@link #restart()}. */
  public void kill() {
    process.kill();
  }

  /** Starts the server again on the same port and catalog database after {@link #kill()}. */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("Cannot restart the REST catalog: pid " + process.pid());
    }
    launch();
  }

  private void launch() {
    process = ChildProcess.start("rest-catalog", command, environment, log);
    try {
      process.awaitLogLine("READY " + port, START_TIMEOUT);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  public String uri() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  @Override
  public void close() {
    process.close();
  }
}
