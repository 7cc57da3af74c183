package dev.floe.catalog.config;

import dev.floe.catalog.error.Causes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.UnreachableException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ProxySelector;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * Before a command touches the catalog, checks that the servers it names answer: the catalog's
 * database (a jdbc catalog on PostgreSQL, MySQL, ...), the REST catalog, a Glue catalog's
 * configured endpoint, and S3 when the warehouse is there. A refused connection or an unknown host
 * fails at once; a server that does not answer fails when {@value #TIMEOUT_PROPERTY} (default 30 s)
 * has passed, whatever the clients' own retries would do (Iceberg re-reads table metadata 20 times,
 * about two minutes, before it gives up on S3). Only a failure to connect counts: any answer, an
 * error included, means the server is there, and the command itself then reports what it says.
 *
 * <p>The same bound becomes the connect timeout of Iceberg's JDBC (PostgreSQL) and REST clients
 * ({@link #clientProperties}), for a server that goes away later.
 */
public final class Reachability {
  /** The catalog property that bounds the check; {@code 0} skips it. */
  public static final String TIMEOUT_PROPERTY = "floe.connect-timeout";

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final String PROBE_KEY = ".floe-reachability-probe";
  private static final String GLUE_ENDPOINT = "glue.endpoint";

  /** Configurations whose servers answered in this JVM: each is checked once. */
  private static final Set<CatalogConfig> REACHED = ConcurrentHashMap.newKeySet();

  /** The HTTP status each REST catalog's uri answered the check with, in this JVM. */
  private static final Map<String, Integer> STATUSES = new ConcurrentHashMap<>();

  private Reachability() {}

  /**
   * The HTTP status the REST catalog at {@code uri} answered the check's {@code GET /v1/config}
   * with, or -1 when it was not asked: Iceberg's client keeps no status in its errors.
   */
  static int lastStatus(String uri) {
    return STATUSES.getOrDefault(uri, -1);
  }

  /** {@link #require}, once per configuration and JVM (a command opens its catalog often). */
  public static void requireOnce(CatalogConfig config) {
    if (!REACHED.contains(config)) {
      require(config);
      REACHED.add(config);
    }
  }

  /**
   * Checks that every server {@code config} names accepts a connection, within the configured
   * timeout in all.
   *
   * @throws UnreachableException naming the first server that could not be reached, and why
   * @throws InvalidInputException when {@value #TIMEOUT_PROPERTY} is not a duration
   */
  public static void require(CatalogConfig config) {
    Duration timeout = timeout(config);
    if (timeout.isZero()) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Probe probe : probes(config)) {
      Optional<Failure> failure = probe.attempt(deadline, timeout);
      if (failure.isPresent()) {
        throw new UnreachableException(
            "open catalog " + config.name(), failure.get().reason(), failure.get().cause());
      }
    }
  }

  /** The configured bound: {@value #TIMEOUT_PROPERTY}, else 30 s. */
  public static Duration timeout(CatalogConfig config) {
    String text = config.properties().get(TIMEOUT_PROPERTY);
    return text == null ? DEFAULT_TIMEOUT : parseDuration(text);
  }

  /** Iceberg's REST client: how long it waits to connect, and for an answer to a request. */
  static final String REST_CONNECT_TIMEOUT = "rest.client.connection-timeout-ms";

  static final String REST_SOCKET_TIMEOUT = "rest.client.socket-timeout-ms";

  /**
   * The timeouts Iceberg's clients get from the bound, unless {@code properties} set them: {@code
   * rest.client.connection-timeout-ms} and {@code rest.client.socket-timeout-ms} (how long one
   * request waits for its answer) for a REST catalog, the PostgreSQL driver's {@code
   * connectTimeout} and {@code loginTimeout} (seconds) for a jdbc catalog on PostgreSQL.
   */
  public static Map<String, String> clientProperties(CatalogConfig config) {
    Map<String, String> properties = config.properties();
    Duration timeout = timeout(config);
    Map<String, String> extra = new HashMap<>();
    if (timeout.isZero()) {
      return extra;
    }
    String uri = properties.getOrDefault("uri", "");
    if (isRest(properties)) {
      extra.put(REST_CONNECT_TIMEOUT, Long.toString(timeout.toMillis()));
      // Without it a catalog that accepted the connection and then stopped answering (a frozen
      // process, a lost packet) kept every command waiting for ever.
      extra.put(REST_SOCKET_TIMEOUT, Long.toString(timeout.toMillis()));
    } else if (uri.startsWith("jdbc:postgresql:")) {
      long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
      // The driver's own default connect timeout is 10 s; it bounds one attempt per host.
      extra.put("jdbc.connectTimeout", Long.toString(Math.min(seconds, 10)));
      extra.put("jdbc.loginTimeout", Long.toString(seconds));
    }
    extra.keySet().removeAll(properties.keySet());
    return extra;
  }

  /** The longest {@value #TIMEOUT_PROPERTY} taken (its nanoseconds must fit a long). */
  static final Duration MAX_TIMEOUT = Duration.ofHours(24);

  /** A duration as {@link Durations} reads it ({@code 30s}, {@code PT30S}); {@code 0} is zero. */
  static Duration parseDuration(String text) {
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    try {
      Duration duration = Durations.parse(trimmed);
      if (duration.compareTo(MAX_TIMEOUT) > 0) {
        throw InvalidInputException.of(
            "Cannot read catalog property '%s': '%s' is longer than %s, the most a connection"
                + " attempt may wait (0 skips the check)",
            TIMEOUT_PROPERTY, text, MAX_TIMEOUT.toHours() + "h");
      }
      if (!duration.isNegative() && duration.getNano() % 1_000_000 != 0) {
        // Iceberg's and the drivers' timeouts are whole milliseconds: PT0.0005S became 0, which
        // their clients read as no timeout at all.
        throw InvalidInputException.of(
            "Cannot read catalog property '%s': '%s' is not a whole number of milliseconds (e.g."
                + " 30s, 500ms, 2m, PT30S; 0 skips the check)",
            TIMEOUT_PROPERTY, text);
      }
      if (!duration.isNegative()) {
        return duration;
      }
    } catch (InvalidInputException e) {
      throw e;
    } catch (RuntimeException e) {
      // refused below
    }
    throw InvalidInputException.of(
        "Cannot read catalog property '%s': '%s' is not a duration (e.g. 30s, 500ms, 2m, PT30S;"
            + " 0 skips the check)",
        TIMEOUT_PROPERTY, text);
  }

  private static List<Probe> probes(CatalogConfig config) {
    Map<String, String> properties = config.properties();
    List<Probe> probes = new ArrayList<>();
    String uri = properties.get("uri");
    if (isRest(properties) && uri != null) {
      probes.add(new RestProbe(uri, properties));
    } else if (isJdbc(properties) && uri != null && isNetworkDatabase(uri)) {
      probes.add(new JdbcProbe(uri, properties, clientProperties(config)));
    } else if (isGlue(properties) && properties.get(GLUE_ENDPOINT) != null) {
      probes.add(new GlueProbe(properties.get(GLUE_ENDPOINT), properties));
    }
    S3Probe.of(properties).ifPresent(probes::add);
    return probes;
  }

  private static boolean isRest(Map<String, String> properties) {
    return "org.apache.iceberg.rest.RESTCatalog".equals(properties.get("catalog-impl"));
  }

  private static boolean isGlue(Map<String, String> properties) {
    return "org.apache.iceberg.aws.glue.GlueCatalog".equals(properties.get("catalog-impl"));
  }

  private static boolean isJdbc(Map<String, String> properties) {
    return "org.apache.iceberg.jdbc.JdbcCatalog".equals(properties.get("catalog-impl"));
  }

  /** Not a file or memory database inside the process: SQLite, embedded H2, Derby, HSQLDB. */
  private static boolean isNetworkDatabase(String uri) {
    if (!uri.startsWith("jdbc:") || uri.startsWith("jdbc:sqlite:")) {
      return false;
    }
    if (uri.startsWith("jdbc:h2:")) {
      return uri.startsWith("jdbc:h2:tcp:") || uri.startsWith("jdbc:h2:ssl:");
    }
    if (uri.startsWith("jdbc:derby:")) {
      return uri.startsWith("jdbc:derby://");
    }
    if (uri.startsWith("jdbc:hsqldb:")) {
      return uri.matches("jdbc:hsqldb:(hsql|hsqls|http|https)://.*");
    }
    return true;
  }

  /**
   * Why {@code failure} means the server could not be reached, or empty when it got an answer of
   * some kind (an authentication error, a 403, a missing driver): those the command reports itself.
   */
  static Optional<String> connectFailure(Throwable failure, Duration timeout) {
    // The whole chain first: java.net.http wraps an unresolved host in a ConnectException without
    // a message, which the loop below would read as a refused connection.
    for (Throwable t : Causes.of(failure)) {
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return Optional.of("unknown host");
      }
      if (t instanceof NoRouteToHostException) {
        return Optional.of("no route to host");
      }
    }
    for (Throwable t : Causes.of(failure)) {
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof ConnectException) {
        // "Connection refused", Apache's "Connect to host:port [...] failed: Connection refused",
        // or none at all (java.net.http).
        if (message.contains("timed out")) {
          return Optional.of(noAnswer(timeout));
        }
        if (message.contains("refused") || message.isEmpty()) {
          return Optional.of("connection refused");
        }
        return Optional.of(firstLine(message));
      }
      if (t instanceof SocketTimeoutException
          || t instanceof HttpTimeoutException
          || (t instanceof InterruptedIOException
              && t.getClass().getSimpleName().equals("ConnectTimeoutException"))) {
        return Optional.of(noAnswer(timeout));
      }
      if (t instanceof SocketException) {
        return Optional.of(firstLine(message));
      }
    }
    return Optional.empty();
  }

  /**
   * Why {@code failure} is a failed TLS handshake (https:// to a plain-HTTP port, an untrusted
   * certificate), or empty. Only for a probe that connects through the client the commands use: a
   * probe with its own HTTP client does not know the catalog's TLS settings (Iceberg's REST client
   * takes a {@code rest.client.tls.configurer-impl}), so its handshake failing proves nothing.
   */
  static Optional<String> tlsFailure(Throwable failure) {
    for (Throwable t : Causes.of(failure)) {
      if (t instanceof SSLException) {
        return Optional.of(
            "TLS handshake failed ("
                + firstLine(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage())
                + ")");
      }
    }
    return Optional.empty();
  }

  private static String noAnswer(Duration timeout) {
    return "no answer within " + Durations.shown(timeout) + " (" + TIMEOUT_PROPERTY + ")";
  }

  static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /**
   * Why a server could not be used, e.g. {@code cannot reach S3 at http://...: connection refused}
   * or {@code the catalog database at jdbc:... refused user 'floe': ...}.
   */
  private record Failure(String reason, Throwable cause) {}

  /** One server to reach. */
  private abstract static class Probe {
    /** What and where, for the message: "S3 at http://127.0.0.1:9000". */
    abstract String what();

    /** Connects and asks one cheap question, giving up after {@code remaining}. */
    abstract void ask(Duration remaining) throws Exception;

    /**
     * Why the server, reached, refused what the configuration gave it (a wrong password), or empty
     * when {@code failure} is no such refusal: then the command reports what happens next itself.
     */
    Optional<String> refusal(Throwable failure) {
      return Optional.empty();
    }

    /** The host name {@link #ask} connects to, for "unknown host ...", or null when unknown. */
    String host() {
      return null;
    }

    /** Whether {@link #ask} connects through the client the commands use, its TLS settings too. */
    boolean asksAsTheCommandsDo() {
      return false;
    }

    /** Runs {@link #ask} on its own thread, so nothing it does can outlast the deadline. */
    final Optional<Failure> attempt(long deadline, Duration timeout) {
      Duration remaining = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
      FutureTask<Void> task =
          new FutureTask<>(
              () -> {
                ask(remaining);
                return null;
              });
      Thread thread = new Thread(task, "floe-reachability");
      thread.setDaemon(true);
      thread.start();
      try {
        task.get(remaining.toNanos(), TimeUnit.NANOSECONDS);
        return Optional.empty();
      } catch (TimeoutException e) {
        task.cancel(true);
        return Optional.of(new Failure("cannot reach " + what() + ": " + noAnswer(timeout), null));
      } catch (ExecutionException e) {
        Optional<String> unreachable =
            connectFailure(e.getCause(), timeout)
                .or(() -> asksAsTheCommandsDo() ? tlsFailure(e.getCause()) : Optional.empty());
        if (unreachable.isPresent()) {
          String reason = unreachable.get();
          if (reason.equals("unknown host") && host() != null) {
            reason += " " + host();
          }
          return Optional.of(new Failure("cannot reach " + what() + ": " + reason, e.getCause()));
        }
        return refusal(e.getCause()).map(r -> new Failure(what() + " " + r, e.getCause()));
      } catch (InterruptedException e) {
        task.cancel(true);
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while reaching " + what(), e);
      }
    }
  }

  /** GET {uri}/v1/config: any HTTP answer, 401 included, means the catalog is there. */
  private static class RestProbe extends Probe {
    final String uri;
    final Map<String, String> properties;

    RestProbe(String uri, Map<String, String> properties) {
      this.uri = uri;
      this.properties = properties;
    }

    @Override
    String what() {
      return "the REST catalog at " + Redaction.maskUriCredentials(uri);
    }

    @Override
    String host() {
      try {
        return URI.create(url()).getHost();
      } catch (IllegalArgumentException e) {
        return null;
      }
    }

    /** The URL asked. */
    String url() {
      String base = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
      return base + "/v1/config";
    }

    @Override
    void ask(Duration remaining) throws Exception {
      HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(remaining);
      String proxyHost = properties.get("rest.client.proxy.hostname");
      String proxyPort = properties.get("rest.client.proxy.port");
      if (proxyHost != null && proxyPort != null) {
        builder.proxy(
            ProxySelector.of(new InetSocketAddress(proxyHost, Integer.parseInt(proxyPort))));
      } else if (ProxySelector.getDefault() != null) {
        builder.proxy(ProxySelector.getDefault());
      }
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(url())).timeout(remaining).GET().build();
      int status =
          builder.build().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      STATUSES.put(uri, status);
    }
  }

  /**
   * GET on the configured Glue endpoint (a VPC endpoint, an emulator): any HTTP answer, an AWS
   * error included, means Glue is there. AWS's own endpoint (no {@code glue.endpoint}) is not
   * probed.
   */
  private static final class GlueProbe extends RestProbe {
    GlueProbe(String endpoint, Map<String, String> properties) {
      super(endpoint, properties);
    }

    @Override
    String what() {
      return "AWS Glue at " + Redaction.maskUriCredentials(uri);
    }

    @Override
    String url() {
      return uri;
    }
  }

  /** Opens and closes one connection with the catalog's driver properties ({@code jdbc.*}). */
  private static final class JdbcProbe extends Probe {
    private final String uri;
    private final Properties driverProperties = new Properties();

    JdbcProbe(String uri, Map<String, String> properties, Map<String, String> timeouts) {
      this.uri = uri;
      Map<String, String> all = new HashMap<>(properties);
      all.putAll(timeouts);
      all.forEach(
          (key, value) -> {
            if (key.startsWith("jdbc.")) {
              driverProperties.setProperty(key.substring("jdbc.".length()), value);
            }
          });
    }

    @Override
    String what() {
      return "the catalog database at " + Redaction.maskUriCredentials(uri);
    }

    @Override
    void ask(Duration remaining) throws Exception {
      try (Connection connection = DriverManager.getConnection(uri, driverProperties)) {
        // connected: the database is there
      }
    }

    /** SQLState class 28 (invalid authorization): the user or its password was refused. */
    @Override
    Optional<String> refusal(Throwable failure) {
      for (Throwable t = failure; t != null; t = t.getCause()) {
        if (t instanceof SQLException sql
            && sql.getSQLState() != null
            && sql.getSQLState().startsWith("28")) {
          String user = driverProperties.getProperty("user");
          return Optional.of(
              "refused "
                  + (user == null ? "the connection" : "user '" + user + "'")
                  + ": "
                  + firstLine(String.valueOf(sql.getMessage()))
                  + "; the password comes from jdbc.password ("
                  + CatalogConfigLoader.propertyToEnv("jdbc.password")
                  + ")");
        }
        if (t.getCause() == t) {
          break;
        }
      }
      return Optional.empty();
    }
  }

  /**
   * A GET of a key under the warehouse through the catalog's own S3FileIO settings (endpoint,
   * credentials, proxy), without the SDK's retries: a 404 or a 403 is an answer (a role without
   * s3:ListBucket gets 403 for a missing key), except the error codes that say the configuration
   * itself is wrong, which only a GET's answer carries: a missing bucket and refused keys.
   */
  private static final class S3Probe extends Probe {
    private static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";

    private final String location;
    private final Map<String, String> properties;

    private S3Probe(String location, Map<String, String> properties) {
      this.location = location;
      this.properties = properties;
    }

    static Optional<Probe> of(Map<String, String> properties) {
      String io = properties.getOrDefault("io-impl", "");
      String warehouse = properties.getOrDefault("warehouse", "");
      boolean s3Io = io.endsWith("S3FileIO") || io.endsWith("ResolvingFileIO");
      if (!s3Io || !warehouse.matches("s3[an]?://.+")) {
        return Optional.empty();
      }
      return Optional.of(new S3Probe(warehouse, properties));
    }

    @Override
    String what() {
      String endpoint = properties.get("s3.endpoint");
      return "S3 at " + (endpoint != null ? endpoint : location);
    }

    @Override
    void ask(Duration remaining) throws Exception {
      Map<String, String> probe = new HashMap<>(properties);
      String millis = Long.toString(Math.max(1, remaining.toMillis()));
      probe.put("s3.retry.num-retries", "0");
      probe.put("http-client.apache.connection-timeout-ms", millis);
      probe.put("http-client.apache.socket-timeout-ms", millis);
      probe.put("http-client.urlconnection.connection-timeout-ms", millis);
      probe.put("http-client.urlconnection.socket-timeout-ms", millis);
      String key = (location.endsWith("/") ? location : location + "/") + PROBE_KEY;
      try (FileIO io = CatalogUtil.loadFileIO(S3_FILE_IO, probe, null);
          InputStream in = io.newInputFile(key).newStream()) {
        in.read();
      } catch (NotFoundException e) {
        // no such key: S3 answered
      }
    }

    @Override
    boolean asksAsTheCommandsDo() {
      return true; // through S3FileIO with the catalog's own properties
    }

    @Override
    Optional<String> refusal(Throwable failure) {
      for (Throwable t : Causes.of(failure)) {
        String code = awsErrorCode(t);
        if ("NoSuchBucket".equals(code)) {
          return Optional.of("has no bucket '" + bucket() + "' (warehouse " + location + ")");
        }
        // A REST catalog may vend the credentials its commands use: the probe's are not those.
        if (("InvalidAccessKeyId".equals(code) || "SignatureDoesNotMatch".equals(code))
            && !isRest(properties)) {
          // The key id is masked in every message like the secret: not named.
          String variables =
              CatalogConfigLoader.propertyToEnv("s3.access-key-id")
                  + ", "
                  + CatalogConfigLoader.propertyToEnv("s3.secret-access-key");
          return Optional.of(
              "refused the keys ("
                  + code
                  + (properties.containsKey("s3.access-key-id")
                      ? "); they come from s3.access-key-id and s3.secret-access-key ("
                          + variables
                          + ")"
                      : "); with s3.access-key-id unset they come from the AWS SDK's default"
                          + " chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an"
                          + " instance or pod role); or set "
                          + variables));
        }
      }
      return Optional.empty();
    }

    /** The bucket of the warehouse location: {@code b} of {@code s3://b/floe}. */
    private String bucket() {
      String rest = location.substring(location.indexOf("://") + 3);
      int slash = rest.indexOf('/');
      return slash < 0 ? rest : rest.substring(0, slash);
    }

    /**
     * The S3 error code of an AWS SDK exception ({@code awsErrorDetails().errorCode()}), read
     * reflectively: the SDK is on the runtime class path only. Null for anything else.
     */
    private static String awsErrorCode(Throwable t) {
      try {
        Object details = t.getClass().getMethod("awsErrorDetails").invoke(t);
        return details == null
            ? null
            : (String) details.getClass().getMethod("errorCode").invoke(details);
      } catch (ReflectiveOperationException | ClassCastException e) {
        return null;
      }
    }
  }
}
