package dev.floe.it.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL that, once armed ({@link #dropAnswerTo}), passes
 * the next statement holding a text to the server, lets the server finish it (up to its
 * ReadyForQuery, so an autocommitted statement is committed), and then closes the client's
 * connection instead of passing the answer on: the statement took effect and the client never hears
 * so, as when a network blip, a PgBouncer restart or a failover drops a connection at the wrong
 * moment. The client must send the statement's text each time: add {@code prepareThreshold=0} to
 * the JDBC URL (PgJDBC otherwise switches to named server-side statements).
 */
public final class PgAnswerDropProxy implements AutoCloseable {
  /** A ReadyForQuery message: type 'Z', length 5 (then the transaction status byte). */
  private static final byte[] READY_FOR_QUERY = {'Z', 0, 0, 0, 5};

  private final ServerSocket server;
  private final int upstreamPort;
  private final AtomicReference<String> armed = new AtomicReference<>();
  private final AtomicInteger dropped = new AtomicInteger();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "pg-answer-drop-proxy");
            thread.setDaemon(true);
            return thread;
          });

  private PgAnswerDropProxy(ServerSocket server, int upstreamPort) {
    this.server = server;
    this.upstreamPort = upstreamPort;
  }

  /** Starts the proxy for the PostgreSQL server listening on 127.0.0.1:{@code upstreamPort}. */
  public static PgAnswerDropProxy start(int upstreamPort) {
    try {
      ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      PgAnswerDropProxy proxy = new PgAnswerDropProxy(server, upstreamPort);
      proxy.threads.submit(proxy::accept);
      System.out.printf("pg-answer-drop-proxy: 127.0.0.1:%d -> %d%n", proxy.port(), upstreamPort);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the PostgreSQL proxy", e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Drops the answer to the next statement whose text contains {@code text}, once. */
  public void dropAnswerTo(String text) {
    armed.set(text);
  }

  /** How many answers were dropped so far. */
  public int answersDropped() {
    return dropped.get();
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    threads.shutdownNow();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
        Connection connection = new Connection(client, upstream);
        threads.submit(connection::toServer);
        threads.submit(connection::toClient);
      } catch (IOException e) {
        if (!server.isClosed()) {
          System.out.println("pg-answer-drop-proxy: " + e);
        }
      }
    }
  }

  private final class Connection {
    private final Socket client;
    private final Socket upstream;
    private volatile boolean doomed;

    Connection(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void toServer() {
      byte[] buffer = new byte[65536];
      try (InputStream in = client.getInputStream();
          OutputStream out = upstream.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          String text = armed.get();
          if (text != null
              && new String(buffer, 0, n, StandardCharsets.ISO_8859_1).contains(text)
              && armed.compareAndSet(text, null)) {
            doomed = true;
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side closed
      } finally {
        closeBoth();
      }
    }

    void toClient() {
      byte[] buffer = new byte[65536];
      ByteArrayOutputStream held = new ByteArrayOutputStream();
      try (InputStream in = upstream.getInputStream();
          OutputStream out = client.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          if (!doomed) {
            out.write(buffer, 0, n);
            out.flush();
            continue;
          }
          // Hold the answer until the server has finished the statement, then lose it.
          held.write(buffer, 0, n);
          if (contains(held.toByteArray(), READY_FOR_QUERY)) {
            dropped.incrementAndGet();
            System.out.println("pg-answer-drop-proxy: dropped the answer to an armed statement");
            return;
          }
        }
      } catch (IOException e) {
        // one side closed
      } finally {
        closeBoth();
      }
    }

    private void closeBoth() {
      try {
        client.close();
      } catch (IOException e) {
        // closing anyway
      }
      try {
        upstream.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= bytes.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (bytes[i + j] != part[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
