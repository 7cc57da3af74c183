package dev.floe.it.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * moto's server ({@code moto_server}, moto 5 with its server extras): AWS Glue and S3 emulated on
 * one port on 127.0.0.1, a child process stopped by its pid. It accepts any credentials; the test
 * JVM's own ({@link ClientCredentials}) do. Nothing is skipped when it is missing: the test fails
 * with how to install it (bin/test checks first).
 */
public final class MotoServer implements S3Server {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** Overrides the binary looked up on PATH. */
  public static final String BINARY_ENV = "FLOE_MOTO_SERVER";

  private final List<String> command;
  private final Path log;
  private final int port;
  private ChildProcess process;

  private MotoServer(List<String> command, Path log, int port) {
    this.command = command;
    this.log = log;
    this.port = port;
  }

  public static MotoServer start() {
    Path dir = ServerPaths.workDir("moto");
    int port = FreePort.pick();
    MotoServer server =
        new MotoServer(
            List.of(binary(), "-H", "127.0.0.1", "-p", Integer.toString(port)),
            dir.resolve("moto.log"),
            port);
    server.launch();
    System.out.println("Glue and S3: moto_server at " + server.endpoint());
    return server;
  }

  /** {@code $FLOE_MOTO_SERVER}, else {@code moto_server} on PATH; fails saying how to get it. */
  static String binary() {
    String configured = System.getenv(BINARY_ENV);
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, "moto_server");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(
        "Cannot start the Glue emulator: moto_server is not on PATH (install it with"
            + " `pip install 'moto[server]==5.2.1'`, or set "
            + BINARY_ENV
            + ")");
  }

  private void launch() {
    process = ChildProcess.start("moto", command, Map.of(), log);
    try {
      process.awaitPort(port, START_TIMEOUT);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  @Override
  public String description() {
    return "moto_server (Glue and S3)";
  }

  @Override
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  @Override
  public String accessKeyId() {
    return "floe-moto";
  }

  @Override
  public String secretAccessKey() {
    return "floe-moto-secret";
  }

  @Override
  public void kill() {
    process.kill();
  }

  /** moto keeps its state in memory: a restarted server is empty. */
  @Override
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("Cannot restart moto_server: pid " + process.pid());
    }
    launch();
  }

  @Override
  public void close() {
    process.close();
  }
}
