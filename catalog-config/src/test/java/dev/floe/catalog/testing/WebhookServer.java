package dev.floe.catalog.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real HTTP server on 127.0.0.1 (a free port) that counts and keeps the requests it gets, for
 * effect tests: {@code @RegisterExtension final WebhookServer server = new WebhookServer();}.
 * Answers 200 unless told to answer otherwise first ({@link #failNext}).
 */
public final class WebhookServer implements BeforeEachCallback, AfterEachCallback {
  /** One request as the server saw it; header names lower-cased. */
  public record Request(String method, String path, Map<String, String> headers, String body) {}

  private final List<Request> requests = new ArrayList<>();
  private final Deque<Integer> statuses = new ArrayDeque<>();
  private HttpServer server;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String body;
          try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          }
          Map<String, String> headers = new TreeMap<>();
          exchange
              .getRequestHeaders()
              .forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
          int status;
          synchronized (this) {
            requests.add(
                new Request(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    headers,
                    body));
            status = statuses.isEmpty() ? 200 : statuses.poll();
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    server.stop(0);
  }

  /** The next {@code times} requests get {@code status} (e.g. 503), then 200 again. */
  public synchronized void failNext(int times, int status) {
    for (int i = 0; i < times; i++) {
      statuses.add(status);
    }
  }

  /** {@code http://127.0.0.1:PORT<path>}. */
  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  public synchronized int count() {
    return requests.size();
  }
}
