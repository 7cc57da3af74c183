package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A password inside the catalog uri or the outbox uri, the database unreachable or its driver
 * missing: the command fails with one line that shows where it could not go, never the password,
 * whichever library wrote the message (Iceberg's "Failed to connect: ...", DriverManager's "No
 * suitable driver found for ...").
 */
class PasswordsNeverReachErrorOutputTest {
  private static final String PASSWORD = "pw-" + UUID.randomUUID();

  @TempDir Path home;

  @Test
  void anUnreachableJdbcCatalogIsNamedWithItsPasswordMasked() throws IOException {
    int port = closedPort();
    String uri = "jdbc:postgresql://127.0.0.1:" + port + "/floe?user=floe&password=" + PASSWORD;

    Result result = floe("snapshots", "sales.fact_orders", "-P", "type=jdbc", "-P", "uri=" + uri);

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err().lines())
        .containsExactly(
            "floe: Cannot open catalog floe: cannot reach the catalog database at"
                + " jdbc:postgresql://127.0.0.1:"
                + port
                + "/floe?user=floe&password=******: connection refused");
  }

  @Test
  void aDriversMessageWithTheWholeUriLosesThePassword() {
    String uri = "jdbc:mysql://floe:" + PASSWORD + "@127.0.0.1:1/floe";
    String warehouse = "warehouse=" + home.resolve("warehouse").toUri();

    Result result =
        floe(
            "snapshots",
            "sales.fact_orders",
            "-P",
            "type=jdbc",
            "-P",
            "uri=" + uri,
            "-P",
            warehouse);

    assertThat(result.code()).isNotZero();
    assertThat(result.out() + result.err())
        .doesNotContain(PASSWORD)
        .contains("jdbc:mysql://floe:******@127.0.0.1:1/floe");
  }

  @Test
  void theOutboxUriLosesItsPasswordToo() {
    Result result =
        floe(
            "effects",
            "-P",
            "floe.outbox.uri=jdbc:mysql://floe:" + PASSWORD + "@127.0.0.1:1/outbox",
            "-P",
            "floe.outbox.jdbc.password=" + PASSWORD + "-2");

    assertThat(result.code()).isNotZero();
    assertThat(result.err()).startsWith("floe: Cannot open the effect outbox at jdbc:mysql://");
    assertThat(result.out() + result.err()).doesNotContain(PASSWORD);
  }

  private record Result(int code, String out, String err) {}

  private Result floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--home", home.toString()));
    List<String> expanded = new ArrayList<>();
    for (String arg : all) {
      expanded.add(arg.equals("-P") ? "--catalog-property" : arg);
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            expanded.toArray(String[]::new),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  /** A port on 127.0.0.1 that nothing listens on (bound, then released). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
