package dev.floe.catalog.effects;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * One POST of an outbox entry with java.net.http. The URL and header templates are resolved here,
 * just before sending; neither their values nor the response body reach a message (a server may
 * echo a token back).
 */
final class WebhookPost {
  /** What one POST came to: a 2xx status, or why not. */
  record Result(Integer httpStatus, String error) {
    boolean ok() {
      return error == null;
    }
  }

  private final HttpClient client;
  private final Duration timeout;
  private final Map<String, String> environment;

  WebhookPost(Duration timeout, Map<String, String> environment) {
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.timeout = timeout;
    this.environment = environment;
  }

  /**
   * @throws InvalidInputException when the URL or a header names an unset environment variable, or
   *     the URL is not http(s): retrying cannot help
   */
  HttpRequest request(OutboxEntry entry) {
    String where = "effect " + entry.key().effect();
    URI uri;
    try {
      uri = URI.create(EnvReferences.resolve(entry.url(), environment, where + " (url)"));
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of(
          "Cannot send %s: its URL %s is not a valid URL", where, entry.url());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    InvalidInputException.check(
        (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null,
        "Cannot send %s: its URL %s is not an http(s) URL with a host",
        where,
        entry.url());
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .POST(HttpRequest.BodyPublishers.ofString(entry.body()))
            .header("Idempotency-Key", entry.key().idempotencyKey());
    boolean contentType = false;
    for (Map.Entry<String, String> header : entry.headers().entrySet()) {
      String name = header.getKey();
      contentType |= name.equalsIgnoreCase("Content-Type");
      request.header(
          name, EnvReferences.resolve(header.getValue(), environment, where + " header " + name));
    }
    if (!contentType) {
      request.header("Content-Type", "application/json");
    }
    return request.build();
  }

  Result post(HttpRequest request) throws InterruptedException {
    try {
      int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      return status >= 200 && status < 300
          ? new Result(status, null)
          : new Result(status, "HTTP " + status);
    } catch (IOException e) {
      String message = e.getMessage();
      return new Result(
          null, e.getClass().getSimpleName() + (message == null ? "" : ": " + message));
    }
  }
}
