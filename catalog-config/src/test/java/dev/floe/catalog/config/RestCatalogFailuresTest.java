package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.UnreachableException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a command says when the REST catalog it opens does not answer, refuses its credentials or is
 * no Iceberg catalog at all: one line naming the catalog's uri. The catalogs here are tiny HTTP
 * servers on 127.0.0.1 that live only inside the test.
 */
class RestCatalogFailuresTest {
  @TempDir Path home;

  private final CountDownLatch released = new CountDownLatch(1);
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private HttpServer server;

  @AfterEach
  void stop() {
    released.countDown();
    if (server != null) {
      server.stop(0);
    }
    threads.shutdownNow();
  }

  @Test
  void aRequestTheCatalogNeverAnswersFailsWithinTheTimeoutNamingTheCatalog() throws IOException {
    String uri =
        serve(
            exchange -> {
              if (exchange.getRequestURI().getPath().equals("/v1/config")) {
                answer(exchange, 200, "{\"defaults\": {}, \"overrides\": {}}");
              } else {
                waitForTheEnd(); // accepted, never answered: a frozen catalog
              }
            });
    // The first HTTP client of a JVM takes a while to start: not within the short bound below.
    Reachability.require(rest(uri, Map.of(Reachability.TIMEOUT_PROPERTY, "30s")));
    Catalog catalog = Catalogs.open(rest(uri, Map.of(Reachability.TIMEOUT_PROPERTY, "2s")));
    try {
      long started = System.nanoTime();
      assertThatThrownBy(() -> Catalogs.loadTable(catalog, "s.t"))
          .isInstanceOf(UnreachableException.class)
          .hasMessage(
              "Cannot load table s.t: the REST catalog at "
                  + uri
                  + " did not answer within 2 s (floe.connect-timeout)");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void theRequestTimeoutTheUserSetWinsAndIsTheOneNamed() throws IOException {
    CatalogConfig config =
        rest("http://127.0.0.1:1", Map.of("rest.client.socket-timeout-ms", "2500"));

    assertThat(Catalogs.icebergProperties(config))
        .containsEntry("rest.client.socket-timeout-ms", "2500");
    assertThat(Catalogs.icebergProperties(rest("http://127.0.0.1:1", Map.of())))
        .containsEntry("rest.client.socket-timeout-ms", "30000");
  }

  @Test
  void refusedCredentialsAreAConfigurationErrorNamingTheUriAndWhereCredentialsComeFrom()
      throws IOException {
    String uri =
        serve(
            exchange ->
                answer(
                    exchange,
                    401,
                    "{\"error\": {\"message\": \"missing or wrong bearer token\","
                        + " \"type\": \"NotAuthorizedException\", \"code\": 401}}"));

    assertThatThrownBy(() -> Catalogs.open(rest(uri, Map.of())))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot open catalog floe: the REST catalog at "
                + uri
                + " refused the credentials (Not authorized: missing or wrong bearer token); they"
                + " come from the catalog properties token and credential, none is set: set"
                + " FLOE_CATALOG_TOKEN (a bearer token) or FLOE_CATALOG_CREDENTIAL (client-id:secret"
                + " for OAuth2)");
  }

  @Test
  void anHtmlErrorPageFromAServerThatIsNoCatalogIsCutToOneLineWithItsStatus() throws IOException {
    String uri =
        serve(
            exchange ->
                answer(
                    exchange,
                    404,
                    "<!DOCTYPE html>\n<html>\n<head>\n<title>404 Not Found</title>\n</head>\n"
                        + "<body>\n<h1>Not Found</h1>\n<p>The page is not here.</p>\n"
                        + "</body>\n</html>\n"));

    assertThatThrownBy(() -> Catalogs.open(rest(uri, Map.of())))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot open catalog floe: the REST catalog at "
                + uri
                + " answered its first request (GET /v1/config) with an error (HTTP 404, 404 Not"
                + " Found); check that catalog.properties.uri is the catalog's"
                + " base URL")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "<"));
  }

  @Test
  void aGatewayErrorOrTooManyRequestsIsAFailureToRetryNotAConfigurationError() throws IOException {
    for (int status : new int[] {502, 504, 429}) {
      String uri =
          serve(
              exchange ->
                  answer(
                      exchange,
                      status,
                      "<html><head><title>" + status + " Bad Gateway</title></head></html>"));

      // It was exit 2, "check that catalog.properties.uri is the catalog's base URL": a
      // scheduler would not retry a gateway's passing trouble.
      assertThatThrownBy(
              () -> Catalogs.open(rest(uri, Map.of("rest.client.max-retries", "1"))),
              "HTTP %d",
              status)
          .isInstanceOf(UnreachableException.class)
          .hasMessageContaining("the REST catalog at " + uri + " failed (")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
  }

  @Test
  void aWebPageAnsweredWithStatus200IsNoCatalogNotALostAnswer() throws IOException {
    String uri =
        serve(
            exchange ->
                answer(
                    exchange,
                    200,
                    "<!DOCTYPE html>\n<html><head><title>Sign in</title></head></html>\n"));

    // It was exit 1, "did not answer", with advice to raise floe.connect-timeout.
    assertThatThrownBy(() -> Catalogs.open(rest(uri, Map.of())))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "answered its first request (GET /v1/config) with no catalog's answer (")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "did not answer"));
  }

  @Test
  void aWrongUriIsAConfigurationErrorAlsoWithoutTheStartUpCheck() throws IOException {
    String uri =
        serve(exchange -> answer(exchange, 404, "<html><title>404 Not Found</title></html>"));

    // With floe.connect-timeout=0 the probe is skipped, and without its status the 404 was taken
    // for a passing failure (exit 1): Iceberg's own message names the code.
    assertThatThrownBy(() -> Catalogs.open(rest(uri, Map.of(Reachability.TIMEOUT_PROPERTY, "0"))))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("answered its first request (GET /v1/config) with an error");
  }

  @Test
  void aUriWithAPathTheCatalogDoesNotServeIsAConfigurationError() throws IOException {
    String base =
        serve(
            exchange ->
                answer(
                    exchange,
                    400,
                    "{\"error\": {\"message\": \"No route for request: GET "
                        + exchange.getRequestURI().getPath().substring(1)
                        + "\", \"type\": \"BadRequestException\", \"code\": 400}}"));

    assertThatThrownBy(() -> Catalogs.open(rest(base + "/api/catalog", Map.of())))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "answered its first request (GET /v1/config) with an error (Malformed request: No"
                + " route for request: GET api/catalog/v1/config); check that"
                + " catalog.properties.uri");
  }

  @Test
  void aRequestWithoutAnswerAnywhereElseIsOneLineNamingTheCatalogAndTheWayOut() {
    RestClientErrors.remember(
        rest("http://127.0.0.1:9/cat", Map.of("rest.client.socket-timeout-ms", "15000")));
    RuntimeException timedOut =
        new org.apache.iceberg.exceptions.RESTException(
            new java.net.SocketTimeoutException("Read timed out"),
            "Error occurred while processing %s request",
            "GET");

    assertThat(RestClientErrors.line(new RuntimeException("wrapped", timedOut)))
        .hasValue(
            "Cannot finish the command: the REST catalog at http://127.0.0.1:9/cat did not answer"
                + " within 15 s (rest.client.socket-timeout-ms); when the catalog is only slow,"
                + " raise floe.connect-timeout or rest.client.socket-timeout-ms");
    assertThat(RestClientErrors.line(new org.apache.iceberg.exceptions.RESTException("other")))
        .isEmpty();
  }

  private CatalogConfig rest(String uri, Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(more);
    properties.put("type", "rest");
    properties.put("uri", uri);
    return CatalogConfigLoader.load(null, home, properties, Map.of());
  }

  /** Starts a server on 127.0.0.1 whose every request {@code handler} answers; its base URL. */
  private String serve(Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(threads);
    server.createContext(
        "/",
        exchange -> {
          try {
            handler.handle(exchange);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            exchange.close();
          }
        });
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void waitForTheEnd() throws InterruptedException {
    released.await();
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange
        .getResponseHeaders()
        .add("Content-Type", body.startsWith("{") ? "application/json" : "text/html");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException, InterruptedException;
  }
}
