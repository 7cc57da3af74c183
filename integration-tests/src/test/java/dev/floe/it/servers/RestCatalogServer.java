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

  private final ChildProcess process;
  private final int port;

  private RestCatalogServer(ChildProcess process, int port) {
    this.process = process;
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
    ChildProcess process =
        ChildProcess.start("rest-catalog", command, environment, dir.resolve("rest-catalog.log"));
    try {
      process.awaitLogLine("READY " + port, START_TIMEOUT);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
    return new RestCatalogServer(process, port);
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
