package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** A free TCP port on 127.0.0.1, for a server a test is about to start. */
public final class FreePort {
  private FreePort() {}

  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find a free port on 127.0.0.1", e);
    }
  }

  /** True when something accepts connections on 127.0.0.1:{@code port}. */
  public static boolean isOpen(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException closed) {
      return false;
    }
  }

  /** Waits until 127.0.0.1:{@code port} accepts connections. */
  public static void awaitOpen(int port, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isOpen(port)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Cannot reach 127.0.0.1:" + port + " after " + timeout);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for port " + port, e);
      }
    }
  }
}
