package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away PostgreSQL cluster from the machine's Debian packages ({@code .ci/run} installs them
 * when missing), listening on 127.0.0.1 only, with password authentication over TCP so the
 * catalog's password has to come from the environment. PostgreSQL refuses to run as root, so as
 * root its programs run as the {@code postgres} user.
 */
public final class PostgresServer implements AutoCloseable {
  public static final String USER = "floe";

  private final Path dir;
  private final int port;
  private final String password;
  private final List<String> asPostgres;
  private final Path bin;

  private PostgresServer(Path dir, int port, String password, List<String> asPostgres, Path bin) {
    this.dir = dir;
    this.port = port;
    this.password = password;
    this.asPostgres = asPostgres;
    this.bin = bin;
  }

  public static PostgresServer start() {
    Path bin = findBin();
    boolean root = "root".equals(System.getProperty("user.name"));
    // As root the directory is handed to the postgres user (its parents are world-traversable).
    Path dir = ServerPaths.workDir("postgres");
    PostgresServer server =
        new PostgresServer(
            dir,
            FreePort.pick(),
            "pg-" + UUID.randomUUID(),
            root ? List.of("runuser", "-u", "postgres", "--") : List.of(),
            bin);
    server.init(root);
    server.launch();
    return server;
  }

  public int port() {
    return port;
  }

  public String password() {
    return password;
  }

  /** The server's process id: line 1 of postmaster.pid (pg_ctl itself daemonizes and exits). */
  public long pid() {
    try {
      return Long.parseLong(Files.readAllLines(dir.resolve("data/postmaster.pid")).get(0).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read PostgreSQL's pid in " + dir, e);
    }
  }

  /** Creates a database and returns its JDBC URL. */
  public String createDatabase(String name) {
    try (Connection connection = connect("postgres");
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot create database " + name + ": " + e.getMessage(), e);
    }
    return jdbcUrl(name);
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), USER, password);
  }

  /**
   * Takes the server down, as an outage would, keeping its data and port: {@link #startAgain()}
   * brings it back.
   */
  public void stop() {
    close();
  }

  /** Starts the server again on the same port and data directory after {@link #stop()}. */
  public void startAgain() {
    launch();
  }

  /** Stops the server by its pid: a fast shutdown through pg_ctl, SIGKILL if that fails. */
  @Override
  public void close() {
    if (!Files.exists(dir.resolve("data/postmaster.pid"))) {
      return; // already stopped
    }
    long pid = pid();
    int code =
        run(command(bin.resolve("pg_ctl").toString(), "-D", data(), "-m", "fast", "-w", "stop"));
    ProcessHandle.of(pid)
        .ifPresent(
            handle -> {
              if (code != 0 || handle.isAlive()) {
                handle.destroyForcibly();
              }
            });
    System.out.printf("postgresql: stopped pid %d%n", pid);
  }

  private void init(boolean root) {
    try {
      Path passwordFile = dir.resolve("pwfile");
      Files.writeString(passwordFile, password + "\n");
      if (root) {
        run(List.of("chown", "-R", "postgres:postgres", dir.toString()));
      }
      check(
          command(
              bin.resolve("initdb").toString(),
              "-D",
              data(),
              "-U",
              USER,
              "--pwfile=" + passwordFile,
              "--auth-local=trust",
              "--auth-host=scram-sha-256",
              "-E",
              "UTF8",
              "--locale=C.UTF-8"),
          "initdb");
      Files.delete(passwordFile);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start PostgreSQL in " + dir, e);
    }
  }

  private void launch() {
    check(
        command(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data(),
            "-l",
            dir.resolve("postgresql.log").toString(),
            "-w",
            "-o",
            // TCP on 127.0.0.1 only, no Unix socket: its path could pass the 107-byte limit
            // under a deep checkout, and nothing here uses it.
            "-c listen_addresses=127.0.0.1 -c port="
                + port
                + " -c unix_socket_directories='' -c fsync=off",
            "start"),
        "pg_ctl start");
    System.out.printf("postgresql: started pid %d on 127.0.0.1:%d, data %s%n", pid(), port, data());
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  private List<String> command(String... args) {
    List<String> command = new ArrayList<>(asPostgres);
    command.addAll(Arrays.asList(args));
    return command;
  }

  private void check(List<String> command, String what) {
    int code = run(command);
    if (code != 0) {
      throw new IllegalStateException(
          "Cannot start PostgreSQL: " + what + " exited with " + code + ", see " + dir);
    }
  }

  private int run(List<String> command) {
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("pg_ctl.log").toFile()))
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return -1;
      }
      return process.exitValue();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + command, e);
    }
  }

  /** FLOE_PG_BIN, else the newest Debian {@code /usr/lib/postgresql/<version>/bin}. */
  static Path findBin() {
    String override = System.getenv("FLOE_PG_BIN");
    if (override != null) {
      return Path.of(override);
    }
    Optional<Path> newest;
    try (var versions = Files.list(Path.of("/usr/lib/postgresql"))) {
      newest =
          versions
              .filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
              .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())));
    } catch (IOException | NumberFormatException e) {
      newest = Optional.empty();
    }
    return newest
        .map(v -> v.resolve("bin"))
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Cannot find PostgreSQL: no /usr/lib/postgresql/<version>/bin/initdb; install"
                        + " it with `apt-get install -y postgresql` (.ci/run does) or set"
                        + " FLOE_PG_BIN"));
  }

  /** The password as Floe reads it: {@code jdbc.password} from the environment. */
  public Map<String, String> credentialEnvironment() {
    return Map.of("FLOE_CATALOG_JDBC__PASSWORD", password);
  }
}
