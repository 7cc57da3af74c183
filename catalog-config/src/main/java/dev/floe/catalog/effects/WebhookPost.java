package dev.floe.catalog.effects;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

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
   * @throws InvalidInputException when the URL or a header names an unset environment variable, a
   *     filled-in header value is one HTTP refuses (a line break, e.g. a secret file's trailing
   *     newline), or the URL is not http(s): retrying cannot help. The message names the header and
   *     the variables, never a value.
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
    HttpRequest.Builder request;
    try {
      request =
          HttpRequest.newBuilder(uri)
              .timeout(timeout)
              .POST(HttpRequest.BodyPublishers.ofString(entry.body()))
              .header("Idempotency-Key", entry.key().idempotencyKey());
    } catch (IllegalArgumentException e) {
      // Its message would quote the filled-in URL, which may hold a token: name the template.
      throw InvalidInputException.of(
          "Cannot send %s: the HTTP client refuses its URL %s", where, entry.url());
    }
    boolean contentType = false;
    for (Map.Entry<String, String> header : entry.headers().entrySet()) {
      String name = header.getKey();
      contentType |= name.equalsIgnoreCase("Content-Type");
      header(request, where, name, header.getValue());
    }
    if (!contentType) {
      request.header("Content-Type", "application/json");
    }
    return request.build();
  }

  /**
   * Sets one header from its template. The HTTP client's own refusal quotes the value (a token, as
   * often as not), so a value it would refuse is refused here first, and its message is dropped.
   */
  private void header(HttpRequest.Builder request, String where, String name, String template) {
    String value = EnvReferences.resolve(template, environment, where + " header " + name);
    List<String> variables = EnvReferences.names(template);
    String source =
        variables.isEmpty()
            ? "its value"
            : "the value of the environment variable(s) " + String.join(", ", variables);
    InvalidInputException.check(
        value.indexOf('\r') < 0 && value.indexOf('\n') < 0,
        "Cannot send %s: header %s would hold a line break (CR or LF) from %s; remove it (a"
            + " secret read from a file often ends in a newline)",
        where,
        name,
        source);
    try {
      request.header(name, value);
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of(
          "Cannot send %s: header %s is not a valid HTTP header once %s is filled in (control"
              + " characters and characters above U+00FF are refused)",
          where, name, source);
    }
  }

  /**
   * The environment values {@code entry}'s URL and headers reference, longest first: what must not
   * appear in a message about sending it.
   */
  List<String> secrets(OutboxEntry entry) {
    List<String> names = new ArrayList<>(EnvReferences.names(entry.url()));
    entry.headers().values().forEach(v -> names.addAll(EnvReferences.names(v)));
    List<String> values = new ArrayList<>();
    for (String name : names) {
      String value = environment.get(name);
      if (value != null && !value.isEmpty()) {
        values.add(value);
        values.add(value.strip());
      }
    }
    values.removeIf(String::isEmpty);
    values.sort(Comparator.comparingInt(String::length).reversed());
    return values;
  }

  /**
   * POSTs {@code request}, the whole exchange (connecting, the answer's status and the rest of the
   * answer) within the timeout: the request's own timeout ends when the status line arrives, so a
   * server that answers and then stalls would otherwise hold the run for ever, after its commit. A
   * 2xx status whose answer does not complete, in time or at all, counts as sent: the receiver
   * accepted the POST, and Floe reads no more of an answer than its status. An I/O error's message
   * is kept (it says what went wrong), with every one of {@code secrets} in it replaced by {@code
   * ***}.
   */
  Result post(HttpRequest request, List<String> secrets) throws InterruptedException {
    AtomicInteger answered = new AtomicInteger(-1);
    CompletableFuture<HttpResponse<Void>> response =
        client.sendAsync(
            request,
            info -> {
              answered.set(info.statusCode());
              return HttpResponse.BodySubscribers.discarding();
            });
    try {
      return result(response.get(timeout.toMillis(), TimeUnit.MILLISECONDS).statusCode());
    } catch (TimeoutException e) {
      response.cancel(true);
      int status = answered.get();
      return status >= 0
          ? result(status)
          : new Result(null, "HttpTimeoutException: no answer within " + timeout);
    } catch (InterruptedException e) {
      response.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      int status = answered.get();
      if (status >= 0) {
        return result(status); // the answer broke off after its status: the status stands
      }
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        // A refused connection's message is often empty: where it went says what failed.
        String message = io.getMessage();
        return new Result(
            null,
            redact(
                io.getClass().getSimpleName()
                    + (message == null || message.isBlank() ? "" : ": " + message)
                    + " (POST to "
                    + origin(request.uri())
                    + ")",
                secrets));
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("Cannot POST: " + cause, cause);
    }
  }

  /** {@code scheme://host:port} of {@code uri}: no path or query, where a token could be. */
  static String origin(java.net.URI uri) {
    int port =
        uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    return uri.getScheme() + "://" + uri.getHost() + ":" + port;
  }

  private static Result result(int status) {
    return status >= 200 && status < 300
        ? new Result(status, null)
        : new Result(status, "HTTP " + status);
  }

  static String redact(String message, List<String> secrets) {
    String redacted = message;
    for (String secret : secrets) {
      redacted = redacted.replace(secret, "***");
    }
    return redacted;
  }
}
