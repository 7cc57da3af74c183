package dev.floe.catalog.config;

import dev.floe.catalog.error.Causes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.UnreachableException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * One line for the failures of Iceberg's REST client that say neither which catalog nor why: a
 * request that got no answer is "Error occurred while processing GET request", whatever the
 * socket's reason (a read timeout, a dropped connection).
 */
public final class RestClientErrors {
  /** The REST catalogs opened in this JVM: their uri (masked), and how long a request waits. */
  private static final Map<String, String> OPENED = new ConcurrentHashMap<>();

  /** What GET /v1/config answers when the uri is no catalog's base URL. */
  private static final java.util.Set<Integer> WRONG_URI = java.util.Set.of(400, 404, 405, 406);

  /** The uri (masked) of the REST catalog this JVM opened last: a command opens one. */
  private static volatile String last;

  private RestClientErrors() {}

  /** Remembers a REST catalog {@link Catalogs#prepare} opens, so its failures can name it. */
  static void remember(CatalogConfig config) {
    String uri = config.properties().get("uri");
    if (uri != null && "rest".equals(config.type())) {
      String masked = Redaction.maskUriCredentials(uri);
      OPENED.put(masked, waitOf(config));
      last = masked;
    }
  }

  /** "30 s (floe.connect-timeout)": how long one request of {@code config} waits for an answer. */
  private static String waitOf(CatalogConfig config) {
    String set = config.properties().get(Reachability.REST_SOCKET_TIMEOUT);
    if (set != null) {
      try {
        return Durations.shown(Duration.ofMillis(Long.parseLong(set.trim())))
            + " ("
            + Reachability.REST_SOCKET_TIMEOUT
            + ")";
      } catch (NumberFormatException e) {
        return "the time " + Reachability.REST_SOCKET_TIMEOUT + " sets";
      }
    }
    return Durations.shown(Reachability.timeout(config))
        + " ("
        + Reachability.TIMEOUT_PROPERTY
        + ")";
  }

  /**
   * Whether {@code failure} is a request the REST catalog never answered, or whose answer was lost:
   * Iceberg's client wraps the socket's failure in a plain {@link RESTException}. A request the
   * catalog may have carried out (a commit) then has an unknown outcome.
   */
  public static boolean isUnanswered(Throwable failure) {
    return unanswered(failure).isPresent();
  }

  private static Optional<IOException> unanswered(Throwable failure) {
    for (Throwable t : Causes.of(failure)) {
      if (t.getClass() == RESTException.class
          && t.getCause() instanceof IOException io
          && !isParseFailure(io)) {
        return Optional.of(io);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether {@code io} is Jackson failing to read an answer (a server that sent a web page): an
   * answer, not a lost one.
   */
  private static boolean isParseFailure(IOException io) {
    return io.getClass().getName().contains(".jackson.");
  }

  private static final java.util.regex.Pattern CODE =
      java.util.regex.Pattern.compile("\\(code: (\\d{3})\\b");

  /** The HTTP status Iceberg's message of {@code failure} names, if it names one. */
  private static Optional<Integer> statusOf(Throwable failure) {
    for (Throwable t : Causes.of(failure)) {
      java.util.regex.Matcher code = CODE.matcher(String.valueOf(t.getMessage()));
      if (code.find()) {
        return Optional.of(Integer.parseInt(code.group(1)));
      }
    }
    return Optional.empty();
  }

  /** Whether {@code failure} is an answer that was no JSON the catalog protocol knows. */
  private static boolean unparsable(Throwable failure) {
    return Causes.of(failure).stream()
        .anyMatch(t -> t instanceof IOException io && isParseFailure(io));
  }

  /**
   * Why a request to the REST catalog failed without an answer, naming the catalog: {@code the REST
   * catalog at http://... did not answer within 30 s (floe.connect-timeout)}; empty for any other
   * failure.
   */
  public static Optional<String> reason(Throwable failure) {
    return reason(failure, last);
  }

  /** {@link #reason} for the REST catalog at {@code uri}, or at the last one opened when null. */
  static Optional<String> reason(Throwable failure, String uri) {
    String masked = uri == null ? last : Redaction.maskUriCredentials(uri);
    String wait = masked == null ? null : OPENED.get(masked);
    return unanswered(failure)
        .map(
            io -> {
              String where = masked == null ? "the REST catalog" : "the REST catalog at " + masked;
              if (io instanceof SocketTimeoutException) {
                return where
                    + " did not answer within "
                    + (wait != null ? wait : "its timeout (" + Reachability.TIMEOUT_PROPERTY + ")");
              }
              String why =
                  io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage();
              return where + " did not answer (" + Reachability.firstLine(why) + ")";
            });
  }

  /**
   * The line a command that failed this way prints: {@link #reason} with the way out; empty for any
   * other failure.
   */
  public static Optional<String> line(Throwable failure) {
    return reason(failure)
        .map(
            reason ->
                "Cannot finish the command: "
                    + reason
                    + "; when the catalog is only slow, raise "
                    + Reachability.TIMEOUT_PROPERTY
                    + " or "
                    + Reachability.REST_SOCKET_TIMEOUT);
  }

  /**
   * What opening {@code config}'s catalog failing with {@code failure} is, in one line: a REST
   * catalog that did not answer is unreachable; one that refused the credentials, or answered its
   * first request ({@code GET /v1/config}) with an error, is configured wrong (exit 2), a server
   * error aside. Any other failure is returned as it is.
   */
  static RuntimeException openFailure(CatalogConfig config, RuntimeException failure) {
    String uri = config.properties().get("uri");
    if (!"rest".equals(config.type()) || uri == null) {
      return failure;
    }
    String action = "open catalog " + config.name();
    String where = "the REST catalog at " + Redaction.maskUriCredentials(uri);
    Optional<String> unanswered = reason(failure, uri);
    if (unanswered.isPresent()) {
      return new UnreachableException(action, unanswered.get(), failure);
    }
    if (!(failure instanceof RESTException)) {
      return failure;
    }
    String said = said(failure, uri);
    if (failure instanceof NotAuthorizedException || failure instanceof ForbiddenException) {
      boolean token = config.properties().containsKey("token");
      boolean credential = config.properties().containsKey("credential");
      String set =
          token || credential
              ? "check "
                  + (token ? "token (" + CatalogConfigLoader.propertyToEnv("token") + ")" : "")
                  + (token && credential ? " and " : "")
                  + (credential
                      ? "credential (" + CatalogConfigLoader.propertyToEnv("credential") + ")"
                      : "")
              : "none is set: set "
                  + CatalogConfigLoader.propertyToEnv("token")
                  + " (a bearer token) or "
                  + CatalogConfigLoader.propertyToEnv("credential")
                  + " (client-id:secret for OAuth2)";
      return new InvalidInputException(
          "Cannot "
              + action
              + ": "
              + where
              + " refused the credentials ("
              + said
              + "); they come from the catalog properties token and credential, "
              + set,
          failure);
    }
    // Only an answer that says the uri is wrong is configuration (exit 2); a server error, a
    // 429, a gateway's 502 or 504, a failing token endpoint may pass, and a retry should see it.
    // The failed request's own status (Iceberg writes "(code: 404, ...)"), else the probe's.
    int status = statusOf(failure).orElse(Reachability.lastStatus(uri));
    boolean notCatalog = unparsable(failure);
    if (failure instanceof ServiceFailureException
        || failure instanceof ServiceUnavailableException
        || !(failure instanceof BadRequestException)
            && !notCatalog
            && !WRONG_URI.contains(status)) {
      return new UnreachableException(action, where + " failed (" + said + ")", failure);
    }
    return new InvalidInputException(
        "Cannot "
            + action
            + ": "
            + where
            + " answered its first request (GET /v1/config) with "
            + (notCatalog ? "no catalog's answer (" : "an error (")
            + said
            + "); check that catalog.properties.uri is the catalog's base URL, the part before"
            + " /v1/config (e.g. http://127.0.0.1:8181, or with the path the catalog's"
            + " documentation gives), and catalog.properties.warehouse",
        failure);
  }

  /**
   * What the catalog said, in one line: Iceberg puts a body that is no Iceberg error (an HTML page)
   * into the message whole; that is cut to its status and its first line of text.
   */
  private static String said(Throwable failure, String uri) {
    String message = failure.getMessage() == null ? "" : failure.getMessage().strip();
    if (!message.contains("\n") && !message.contains("<")) {
      return message;
    }
    int status = Reachability.lastStatus(uri);
    String text = firstText(message);
    return (status > 0 ? "HTTP " + status + ", " : "") + text;
  }

  /** The first line of {@code message} that holds text once markup is taken out, cut at 200. */
  private static String firstText(String message) {
    String title = null;
    java.util.regex.Matcher matcher =
        java.util.regex.Pattern.compile("(?is)<title>(.*?)</title>").matcher(message);
    if (matcher.find()) {
      title = matcher.group(1);
    }
    // Iceberg's own words before the body: "Unable to process", "Malformed request".
    java.util.regex.Matcher words =
        java.util.regex.Pattern.compile("^([A-Za-z][A-Za-z ]{0,40}):\\s").matcher(message);
    String prefix = words.find() ? words.group(1) : "";
    String text = title;
    if (text == null || text.isBlank()) {
      for (String line : message.replaceAll("(?s)<[^>]*>", "\n").split("\n")) {
        if (!line.isBlank() && !line.strip().equals(prefix + ":")) {
          text = line;
          break;
        }
      }
    }
    text = text == null ? "" : text.strip().replaceAll("\\s+", " ");
    if (text.length() > 200) {
      text = text.substring(0, 200) + "...";
    }
    return prefix.isEmpty() || text.startsWith(prefix) ? text : prefix + ": " + text;
  }
}
