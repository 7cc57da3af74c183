package dev.floe.it.servers;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small HTTP/1.1 proxy on 127.0.0.1 in front of an Iceberg REST catalog server, to make a
 * commit's outcome unknown for real. It forwards every request unchanged, except the table commits
 * ({@code POST /v1/[prefix/]namespaces/NS/tables/TABLE}, Iceberg's updateTable) of an armed table,
 * to which it applies a {@link Fault} the given number of times: the catalog may apply the commit
 * and the client never learns it.
 *
 * <p>One request per connection (every answer says {@code Connection: close}), so a client never
 * reuses a connection the proxy closed. Bounded: at most {@value #MAX_HANDLERS} connections are
 * handled at once (the accept loop serves the next one itself), a request head up to 64 KiB, a body
 * up to 64 MiB, 60 s for the catalog to answer.
 */
public final class CommitFaultProxy implements AutoCloseable {
  private static final int MAX_HANDLERS = 32;
  private static final int MAX_HEAD = 64 * 1024;
  private static final int MAX_BODY = 64 * 1024 * 1024;
  private static final Duration UPSTREAM_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CLIENT_IDLE = Duration.ofSeconds(60);
  private static final Pattern TABLE_COMMIT =
      Pattern.compile("^/v1/(?:[^/]+/)?namespaces/([^/]+)/tables/([^/]+)$");

  /** Headers that belong to one connection, or that java.net.http sets by itself. */
  private static final Set<String> NOT_FORWARDED =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "keep-alive",
          "proxy-connection",
          "te",
          "trailer",
          "transfer-encoding",
          "upgrade");

  /** What the proxy does to an armed table commit. */
  public enum Fault {
    /**
     * Forwards the commit, waits for the catalog's answer, then closes the connection unanswered.
     */
    LOSE_RESPONSE(-1, false, true),
    /** Forwards the commit, then answers 502 Bad Gateway whatever the catalog said. */
    BAD_GATEWAY_AFTER_COMMIT(502, false, true),
    /** Forwards the commit, then answers 503 with {@code Retry-After: 1} (Iceberg retries that). */
    UNAVAILABLE_RETRY_AFTER_COMMIT(503, true, true),
    /** Forwards the commit, then answers 504 Gateway Timeout. */
    GATEWAY_TIMEOUT_AFTER_COMMIT(504, false, true),
    /** Closes the connection without forwarding: the commit never reaches the catalog. */
    DROP_REQUEST(-1, false, false);

    private final int status;
    private final boolean retryAfter;
    private final boolean forwards;

    Fault(int status, boolean retryAfter, boolean forwards) {
      this.status = status;
      this.retryAfter = retryAfter;
      this.forwards = forwards;
    }
  }

  /**
   * A table commit the proxy saw.
   *
   * @param table the table's name as in the path (namespace.table)
   * @param fault what the proxy did to it, null when it passed unchanged
   * @param catalogStatus the catalog's status code, -1 when it was not forwarded (or failed)
   */
  public record Commit(String table, Fault fault, int catalogStatus) {}

  private final ServerSocket socket;
  private final URI upstream;
  private final HttpClient client;
  private final ThreadPoolExecutor handlers;
  private final Thread acceptor;
  private final List<Commit> commits = new CopyOnWriteArrayList<>();
  private String armedTable;
  private Fault armedFault;
  private int armedTimes;

  private CommitFaultProxy(ServerSocket socket, URI upstream) {
    this.socket = socket;
    this.upstream = upstream;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.handlers =
        new ThreadPoolExecutor(
            0,
            MAX_HANDLERS,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "commit-fault-proxy-handler");
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    this.acceptor = new Thread(this::acceptLoop, "commit-fault-proxy-" + socket.getLocalPort());
    this.acceptor.setDaemon(true);
  }

  /** Starts a proxy on a free port of 127.0.0.1 that forwards to {@code http://127.0.0.1:port}. */
  public static CommitFaultProxy start(int catalogPort) {
    try {
      ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      CommitFaultProxy proxy =
          new CommitFaultProxy(socket, URI.create("http://127.0.0.1:" + catalogPort));
      proxy.acceptor.start();
      System.out.printf(
          "commit-fault-proxy: 127.0.0.1:%d -> %s%n", socket.getLocalPort(), proxy.upstream);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the commit fault proxy on 127.0.0.1", e);
    }
  }

  public String uri() {
    return "http://127.0.0.1:" + port();
  }

  public int port() {
    return socket.getLocalPort();
  }

  /**
   * Applies {@code fault} to the next {@code times} commits of {@code table} (namespace.table);
   * later commits pass. Replaces what was armed before.
   */
  public synchronized void arm(String table, Fault fault, int times) {
    this.armedTable = table;
    this.armedFault = fault;
    this.armedTimes = times;
  }

  /** Disarms, and forgets the commits seen so far. */
  public synchronized void reset() {
    arm(null, null, 0);
    commits.clear();
  }

  /** The table commits seen since the last {@link #reset}, in order. */
  public List<Commit> commits() {
    return List.copyOf(commits);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    handlers.shutdownNow();
    try {
      acceptor.join(5_000);
      handlers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.out.printf("commit-fault-proxy: stopped 127.0.0.1:%d%n", socket.getLocalPort());
  }

  @Override
  public String toString() {
    return "commit-fault-proxy 127.0.0.1:" + socket.getLocalPort();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        handlers.execute(() -> handle(connection));
      } catch (SocketException closed) {
        return;
      } catch (IOException | RuntimeException e) {
        System.out.println("commit-fault-proxy: cannot accept: " + e);
      }
    }
  }

  private synchronized Fault take(String table) {
    if (armedFault == null || armedTimes <= 0 || !table.equals(armedTable)) {
      return null;
    }
    armedTimes--;
    return armedFault;
  }

  private void handle(Socket connection) {
    try (connection) {
      connection.setSoTimeout((int) CLIENT_IDLE.toMillis());
      InputStream in = connection.getInputStream();
      Request request = Request.read(in);
      if (request == null) {
        return;
      }
      String table = tableCommitted(request);
      Fault fault = table == null ? null : take(table);
      if (fault != null && !fault.forwards) {
        commits.add(new Commit(table, fault, -1));
        return; // closes the connection: the commit never left the proxy
      }
      HttpResponse<byte[]> answer;
      try {
        answer = forward(request);
      } catch (IOException e) {
        if (table != null) {
          commits.add(new Commit(table, fault, -1));
        }
        respond(connection.getOutputStream(), request, 502, Map.of(), error(502, e.toString()));
        return;
      }
      if (table != null) {
        commits.add(new Commit(table, fault, answer.statusCode()));
      }
      if (fault == null) {
        respond(
            connection.getOutputStream(),
            request,
            answer.statusCode(),
            answer.headers().map(),
            answer.body());
      } else if (fault.status > 0) {
        respond(
            connection.getOutputStream(),
            request,
            fault.status,
            fault.retryAfter ? Map.of("Retry-After", List.of("1")) : Map.of(),
            error(
                fault.status,
                "injected by the test proxy after the catalog answered"
                    + " "
                    + answer.statusCode()));
      }
      // LOSE_RESPONSE: the catalog answered; the connection closes with no byte of it.
    } catch (IOException | RuntimeException e) {
      if (!socket.isClosed()) {
        System.out.println("commit-fault-proxy: cannot serve a connection: " + e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The table (namespace.table) a request commits to, or null for any other request. */
  private static String tableCommitted(Request request) {
    if (!request.method.equals("POST")) {
      return null;
    }
    String path = request.target;
    int query = path.indexOf('?');
    Matcher matcher = TABLE_COMMIT.matcher(query < 0 ? path : path.substring(0, query));
    if (!matcher.matches()) {
      return null;
    }
    // Iceberg encodes a multi-level namespace with 0x1F between levels.
    String namespace =
        URLDecoder.decode(matcher.group(1), StandardCharsets.UTF_8).replace('\u001f', '.');
    return namespace + "." + URLDecoder.decode(matcher.group(2), StandardCharsets.UTF_8);
  }

  private HttpResponse<byte[]> forward(Request request) throws IOException, InterruptedException {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(upstream.resolve(request.target))
            .timeout(UPSTREAM_TIMEOUT)
            .method(
                request.method,
                request.body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(request.body));
    for (String[] header : request.headers) {
      if (!NOT_FORWARDED.contains(header[0].toLowerCase(Locale.ROOT))) {
        try {
          builder.header(header[0], header[1]);
        } catch (IllegalArgumentException restricted) {
          // a header java.net.http sets itself
        }
      }
    }
    return client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void respond(
      OutputStream out, Request request, int status, Map<String, List<String>> headers, byte[] body)
      throws IOException {
    StringBuilder head = new StringBuilder();
    head.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
    headers.forEach(
        (name, values) -> {
          if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
            values.forEach(value -> head.append(name).append(": ").append(value).append("\r\n"));
          }
        });
    boolean noBody =
        request.method.equals("HEAD") || status == 204 || status == 304 || status < 200;
    if (!noBody) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!noBody) {
      out.write(body);
    }
    out.flush();
  }

  /** An Iceberg REST ErrorResponse body. */
  private static byte[] error(int status, String message) {
    String json =
        "{\"error\":{\"message\":\"%s\",\"type\":\"%s\",\"code\":%d}}"
            .formatted(
                message.replace("\\", "\\\\").replace("\"", "\\\""),
                reason(status).replace(" ", "") + "Exception",
                status);
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 204 -> "No Content";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 409 -> "Conflict";
      case 500 -> "Internal Server Error";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "Status " + status;
    };
  }

  /** One HTTP/1.1 request as read from the client: its head and its whole body. */
  private record Request(String method, String target, List<String[]> headers, byte[] body) {

    /** Reads a request; null when the client closed the connection before sending one. */
    static Request read(InputStream in) throws IOException {
      String head = readHead(in);
      if (head == null) {
        return null;
      }
      String[] lines = head.split("\r\n");
      String[] requestLine = lines[0].split(" ");
      if (requestLine.length != 3) {
        throw new IOException("Cannot read the request line '" + lines[0] + "'");
      }
      List<String[]> headers = new ArrayList<>();
      long length = 0;
      boolean chunked = false;
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon <= 0) {
          throw new IOException("Cannot read the header line '" + lines[i] + "'");
        }
        String name = lines[i].substring(0, colon).trim();
        String value = lines[i].substring(colon + 1).trim();
        headers.add(new String[] {name, value});
        if (name.equalsIgnoreCase("Content-Length")) {
          length = Long.parseLong(value);
        } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
          chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        }
      }
      byte[] body = chunked ? readChunked(in) : readExactly(in, length);
      return new Request(requestLine[0], requestLine[1], headers, body);
    }

    private static String readHead(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int last4 = 0;
      while (last4 != 0x0d0a0d0a) {
        int b = in.read();
        if (b < 0) {
          if (head.size() == 0) {
            return null;
          }
          throw new EOFException("The client closed the connection inside a request head");
        }
        head.write(b);
        if (head.size() > MAX_HEAD) {
          throw new IOException("Cannot read a request head longer than " + MAX_HEAD + " bytes");
        }
        last4 = (last4 << 8) | b;
      }
      String text = head.toString(StandardCharsets.ISO_8859_1);
      return text.substring(0, text.length() - 4);
    }

    private static byte[] readExactly(InputStream in, long length) throws IOException {
      if (length > MAX_BODY) {
        throw new IOException("Cannot forward a body of " + length + " bytes");
      }
      return in.readNBytes((int) length);
    }

    private static byte[] readChunked(InputStream in) throws IOException {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      while (true) {
        String sizeLine = readLine(in);
        int semicolon = sizeLine.indexOf(';');
        int size =
            Integer.parseInt(
                (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
        if (size == 0) {
          while (!readLine(in).isEmpty()) {
            // trailers, dropped
          }
          return body.toByteArray();
        }
        if (body.size() + size > MAX_BODY) {
          throw new IOException("Cannot forward a chunked body over " + MAX_BODY + " bytes");
        }
        body.write(in.readNBytes(size));
        readLine(in);
      }
    }

    private static String readLine(InputStream in) throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) != '\n') {
        if (b < 0) {
          throw new EOFException("The client closed the connection inside a chunked body");
        }
        if (b != '\r') {
          line.write(b);
        }
        if (line.size() > MAX_HEAD) {
          throw new IOException("Cannot read a chunk line longer than " + MAX_HEAD + " bytes");
        }
      }
      return line.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
