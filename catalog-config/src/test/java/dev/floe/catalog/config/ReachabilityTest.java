package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.sun.net.httpserver.HttpServer;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.UnreachableException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose S3, catalog database or REST catalog cannot be reached fails at once when the
 * connection is refused, and within floe.connect-timeout when nothing answers. Servers here bind to
 * 127.0.0.1 and live only inside the test.
 */
class ReachabilityTest {
  @TempDir Path home;

  @Test
  void aRefusedCatalogDatabaseFailsAtOnceWithItsUriPasswordMasked() throws IOException {
    int port = closedPort();
    CatalogConfig config =
        load(
            Map.of(
                "type",
                "jdbc",
                "uri",
                "jdbc:postgresql://127.0.0.1:" + port + "/floe?user=floe&password=not-shown"));

    long started = System.nanoTime();
    assertThatThrownBy(() -> Reachability.require(config))
        .isInstanceOf(UnreachableException.class)
        .hasMessage(
            "Cannot open catalog floe: cannot reach the catalog database at"
                + " jdbc:postgresql://127.0.0.1:"
                + port
                + "/floe?user=floe&password=******: connection refused");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aRefusedRestCatalogFailsAtOnce() throws IOException {
    int port = closedPort();
    CatalogConfig config = load(Map.of("type", "rest", "uri", "http://127.0.0.1:" + port));

    assertThatThrownBy(() -> Reachability.require(config))
        .isInstanceOf(UnreachableException.class)
        .hasMessage(
            "Cannot open catalog floe: cannot reach the REST catalog at http://127.0.0.1:"
                + port
                + ": connection refused");
  }

  @Test
  void aRefusedGlueEndpointFailsAtOnce() throws IOException {
    int port = closedPort();
    CatalogConfig config =
        load(
            Map.of(
                "type",
                "glue",
                "glue.endpoint",
                "http://127.0.0.1:" + port,
                "client.region",
                "us-east-1"));

    assertThatThrownBy(() -> Reachability.require(config))
        .isInstanceOf(UnreachableException.class)
        .hasMessage(
            "Cannot open catalog floe: cannot reach AWS Glue at http://127.0.0.1:"
                + port
                + ": connection refused");
  }

  @Test
  void aRefusedS3FailsAtOnceWithoutTheSdksRetries() throws IOException {
    int port = closedPort();
    CatalogConfig config = load(s3("http://127.0.0.1:" + port, "1s"));

    long started = System.nanoTime();
    assertThatThrownBy(() -> Reachability.require(config))
        .isInstanceOf(UnreachableException.class)
        .hasMessage(
            "Cannot open catalog floe: cannot reach S3 at http://127.0.0.1:"
                + port
                + ": connection refused");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aServerThatAcceptsButNeverAnswersFailsWhenTheTimeoutHasPassed() throws IOException {
    // The kernel completes the handshake for the backlog; nobody ever reads or answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String endpoint = "http://127.0.0.1:" + silent.getLocalPort();
      for (CatalogConfig config :
          new CatalogConfig[] {
            load(Map.of("type", "rest", "uri", endpoint, Reachability.TIMEOUT_PROPERTY, "1s")),
            load(s3(endpoint, "1s"))
          }) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> Reachability.require(config))
            .isInstanceOf(UnreachableException.class)
            .hasMessageEndingWith(endpoint + ": no answer within 1 s (floe.connect-timeout)");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .isBetween(Duration.ofMillis(900), Duration.ofSeconds(20));
      }
    }
  }

  @Test
  void anyAnswerCountsEvenAnErrorStatus() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.sendResponseHeaders(403, -1);
          exchange.close();
        });
    server.start();
    try {
      String endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
      Map<String, String> rest = new HashMap<>(s3(endpoint, "60s"));
      rest.putAll(Map.of("type", "rest", "uri", endpoint));

      Reachability.require(load(rest));
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aTimeoutOfZeroSkipsTheCheck() throws IOException {
    CatalogConfig config =
        load(
            Map.of(
                "type",
                "rest",
                "uri",
                "http://127.0.0.1:" + closedPort(),
                Reachability.TIMEOUT_PROPERTY,
                "0"));

    Reachability.require(config);
  }

  @Test
  void theTimeoutReadsShortAndIsoDurationsAndRefusesOthersWhenLoaded() {
    assertThat(Reachability.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Reachability.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Reachability.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Reachability.parseDuration("PT45S")).isEqualTo(Duration.ofSeconds(45));
    assertThat(Reachability.timeout(CatalogConfigLoader.embedded(home)))
        .isEqualTo(Duration.ofSeconds(30));
    assertThatThrownBy(() -> load(Map.of(Reachability.TIMEOUT_PROPERTY, "soon")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read catalog property 'floe.connect-timeout': 'soon' is not a duration (e.g."
                + " 30s, 500ms, 2m, PT30S; 0 skips the check)");
    assertThatThrownBy(() -> load(Map.of(Reachability.TIMEOUT_PROPERTY, "99999999999m")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read catalog property 'floe.connect-timeout': '99999999999m' is longer than"
                + " 24h, the most a connection attempt may wait (0 skips the check)");
    assertThat(Reachability.parseDuration("PT24H")).isEqualTo(Duration.ofHours(24));
    // Iceberg's REST client and the drivers take whole milliseconds: PT0.0005S was sent as 0,
    // which they read as no timeout at all.
    assertThatThrownBy(() -> load(Map.of(Reachability.TIMEOUT_PROPERTY, "PT0.0005S")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read catalog property 'floe.connect-timeout': 'PT0.0005S' is not a whole"
                + " number of milliseconds (e.g. 30s, 500ms, 2m, PT30S; 0 skips the check)");
    assertThatThrownBy(() -> load(Map.of(Reachability.TIMEOUT_PROPERTY, "PT1.0005S")))
        .isInstanceOf(InvalidInputException.class);
    assertThat(Reachability.parseDuration("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void icebergsRestAndPostgresClientsGetTheTimeoutUnlessTheUserSetOne() {
    CatalogConfig rest = load(Map.of("type", "rest", "uri", "http://rest:8181"));
    CatalogConfig restSet =
        load(
            Map.of(
                "type",
                "rest",
                "uri",
                "http://rest:8181",
                "rest.client.connection-timeout-ms",
                "5000"));
    CatalogConfig postgres =
        load(
            Map.of(
                "type",
                "jdbc",
                "uri",
                "jdbc:postgresql://db/f",
                Reachability.TIMEOUT_PROPERTY,
                "45s"));

    assertThat(Catalogs.icebergProperties(rest))
        .contains(entry("rest.client.connection-timeout-ms", "30000"));
    assertThat(Catalogs.icebergProperties(restSet))
        .contains(entry("rest.client.connection-timeout-ms", "5000"));
    assertThat(Catalogs.icebergProperties(postgres))
        .contains(entry("jdbc.connectTimeout", "10"), entry("jdbc.loginTimeout", "45"));
    assertThat(Reachability.clientProperties(CatalogConfigLoader.embedded(home))).isEmpty();
  }

  @Test
  void anS3AnswerThatTheKeysOrTheBucketAreWrongFailsInOneLineNamingThem() throws IOException {
    for (String[] error :
        new String[][] {
          {
            "403",
            "SignatureDoesNotMatch",
            "refused the keys (SignatureDoesNotMatch);"
                + " they come from s3.access-key-id and s3.secret-access-key"
                + " (FLOE_CATALOG_S3__ACCESS_KEY_ID, FLOE_CATALOG_S3__SECRET_ACCESS_KEY)"
          },
          {"403", "InvalidAccessKeyId", "refused the keys (InvalidAccessKeyId)"},
          {"404", "NoSuchBucket", "has no bucket 'warehouse' (warehouse s3://warehouse/floe)"}
        }) {
      HttpServer server = s3Answering(Integer.parseInt(error[0]), error[1]);
      try {
        String endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
        assertThatThrownBy(() -> Reachability.require(load(s3(endpoint, "10s"))))
            .as(error[1])
            .isInstanceOf(UnreachableException.class)
            .hasMessageContaining("S3 at " + endpoint + " " + error[2])
            .hasMessageNotContaining("floe-test-secret");
      } finally {
        server.stop(0);
      }
    }
  }

  @Test
  void refusedKeysFromTheSdkChainAreSaidToComeFromThere() throws IOException {
    Map<String, String> chain = new HashMap<>(s3("", "10s"));
    chain.remove("s3.access-key-id");
    chain.remove("s3.secret-access-key");
    HttpServer server = s3Answering(403, "InvalidAccessKeyId");
    System.setProperty("aws.accessKeyId", "AKIAFROMTHECHAIN");
    System.setProperty("aws.secretAccessKey", "chain-secret");
    try {
      chain.put("s3.endpoint", "http://127.0.0.1:" + server.getAddress().getPort());
      assertThatThrownBy(() -> Reachability.require(load(chain)))
          .isInstanceOf(UnreachableException.class)
          .hasMessageContaining(
              "refused the keys (InvalidAccessKeyId); with s3.access-key-id unset they come from"
                  + " the AWS SDK's default chain");
    } finally {
      System.clearProperty("aws.accessKeyId");
      System.clearProperty("aws.secretAccessKey");
      server.stop(0);
    }
  }

  @Test
  void aRestCatalogsRefusedS3KeysAreNoRefusalItMayVendOthers() throws IOException {
    HttpServer server = s3Answering(403, "SignatureDoesNotMatch");
    try {
      String endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
      Map<String, String> rest = new HashMap<>(s3(endpoint, "10s"));
      rest.putAll(Map.of("type", "rest", "uri", endpoint));

      Reachability.require(load(rest));
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aRestCatalogsTlsFailureAtTheProbeIsNoFailureItsClientHasItsOwnTlsSettings()
      throws Exception {
    // The probe's own HTTP client knows nothing of rest.client.tls.configurer-impl.
    try (ServerSocket plain = plainHttpAnsweringTls()) {
      Reachability.require(
          load(
              Map.of(
                  "type",
                  "rest",
                  "uri",
                  "https://127.0.0.1:" + plain.getLocalPort(),
                  Reachability.TIMEOUT_PROPERTY,
                  "10s")));
    }
  }

  @Test
  void anS3AnswerOfAccessDeniedOrNoSuchKeyIsAnAnswer() throws IOException {
    // A role without s3:ListBucket gets 403 AccessDenied for a missing key: nothing is wrong.
    for (String[] error : new String[][] {{"403", "AccessDenied"}, {"404", "NoSuchKey"}}) {
      HttpServer server = s3Answering(Integer.parseInt(error[0]), error[1]);
      try {
        Reachability.require(load(s3("http://127.0.0.1:" + server.getAddress().getPort(), "10s")));
      } finally {
        server.stop(0);
      }
    }
  }

  @Test
  void httpsToAPlainHttpServerFailsAtOnceAsATlsFailure() throws Exception {
    try (ServerSocket plain = plainHttpAnsweringTls()) {
      String endpoint = "https://127.0.0.1:" + plain.getLocalPort();
      long started = System.nanoTime();

      assertThatThrownBy(() -> Reachability.require(load(s3(endpoint, "20s"))))
          .isInstanceOf(UnreachableException.class)
          .hasMessageContaining("cannot reach S3 at " + endpoint + ": TLS handshake failed (");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
    }
  }

  @Test
  void aRestCatalogOnAnUnknownHostIsReportedAsAnUnknownHostNamingItNotAsRefused() {
    CatalogConfig config = load(Map.of("type", "rest", "uri", "http://no-such-host.invalid:8181"));

    assertThatThrownBy(() -> Reachability.require(config))
        .isInstanceOf(UnreachableException.class)
        .hasMessage(
            "Cannot open catalog floe: cannot reach the REST catalog at"
                + " http://no-such-host.invalid:8181: unknown host no-such-host.invalid");
  }

  @Test
  void aRestUriWithoutSchemeIsRefusedWhenLoadedLikeAnEndpoint() {
    assertThatThrownBy(() -> load(Map.of("type", "rest", "uri", "127.0.0.1:18481")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot configure catalog: property uri=127.0.0.1:18481 is not an http:// or"
                + " https:// URL, e.g. http://127.0.0.1:8181");
  }

  @Test
  void anEndpointWithoutSchemeIsRefusedNamingTheProperty() {
    assertThatThrownBy(() -> load(s3("127.0.0.1:9000", "10s")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot configure catalog: property s3.endpoint=127.0.0.1:9000 is not an http:// or"
                + " https:// URL, e.g. http://127.0.0.1:9000");
  }

  /**
   * A plain-HTTP server on 127.0.0.1 that answers whatever comes, a TLS hello too, with a
   * plain-text 400 (as Jetty, S3Proxy's server, does).
   */
  private static ServerSocket plainHttpAnsweringTls() throws IOException {
    ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread answering =
        new Thread(
            () -> {
              while (!plain.isClosed()) {
                try (java.net.Socket connection = plain.accept()) {
                  connection.getInputStream().read(new byte[4096]);
                  connection
                      .getOutputStream()
                      .write(
                          "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                              .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                } catch (IOException e) {
                  return;
                }
              }
            });
    answering.setDaemon(true);
    answering.start();
    return plain;
  }

  /** A local server answering every request with an S3 error of {@code status} and {@code code}. */
  private static HttpServer s3Answering(int status, String code) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body =
              ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                      + code
                      + "</Code><Message>"
                      + code
                      + " happened</Message><RequestId>1</RequestId></Error>")
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
          } else {
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    server.start();
    return server;
  }

  private CatalogConfig load(Map<String, String> overrides) {
    return CatalogConfigLoader.load(null, home, overrides, Map.of());
  }

  /** An embedded catalog (local SQLite) whose warehouse is on the S3 at {@code endpoint}. */
  private static Map<String, String> s3(String endpoint, String timeout) {
    return Map.of(
        "warehouse",
        "s3://warehouse/floe",
        "io-impl",
        "org.apache.iceberg.aws.s3.S3FileIO",
        "s3.endpoint",
        endpoint,
        "s3.path-style-access",
        "true",
        "s3.access-key-id",
        "floe-test",
        "s3.secret-access-key",
        "floe-test-secret",
        "client.region",
        "us-east-1",
        Reachability.TIMEOUT_PROPERTY,
        timeout);
  }

  /** A port on 127.0.0.1 that nothing listens on (bound, then released). */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
