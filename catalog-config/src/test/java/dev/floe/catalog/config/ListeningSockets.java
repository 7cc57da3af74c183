package dev.floe.catalog.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc}: the sockets among the
 * process's file descriptors that {@code /proc/net/tcp} and {@code tcp6} list in state LISTEN. For
 * servers that pick their own ports (Spark's driver, Flink's BLOB server), where a test cannot
 * connect to a known port to find out. Linux only: elsewhere it fails, it does not skip.
 */
public final class ListeningSockets {
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /** Every address and port {@code pid} listens on now; IPv4-mapped IPv6 addresses as IPv4. */
  public static List<InetSocketAddress> of(long pid) {
    Set<String> inodes = socketInodes(pid);
    List<InetSocketAddress> listening = new ArrayList<>();
    for (Path table : List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"))) {
      if (!Files.exists(table)) {
        continue; // tcp6 on a kernel without IPv6 (off Linux, the descriptors were not listed)
      }
      List<String> lines;
      try {
        lines = Files.readAllLines(table);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + table, e);
      }
      for (String line : lines.subList(1, lines.size())) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 9 && fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
          listening.add(address(fields[1]));
        }
      }
    }
    return listening;
  }

  /** What this JVM listens on now and did not in {@code before}. */
  public static List<InetSocketAddress> openedSince(Collection<InetSocketAddress> before) {
    return of(ProcessHandle.current().pid()).stream()
        .filter(socket -> !before.contains(socket))
        .toList();
  }

  private static Set<String> socketInodes(long pid) {
    Path fds = Path.of("/proc", Long.toString(pid), "fd");
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> listed = Files.list(fds)) {
      for (Path fd : listed.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // the descriptor went away while listing
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + fds + " (Linux only)", e);
    }
    return inodes;
  }

  /**
   * {@code 0100007F:1F90} is 127.0.0.1:8080 on a little-endian machine: the address as 32-bit words
   * in the machine's byte order (4 of them for IPv6), then the port.
   */
  static InetSocketAddress address(String field) {
    String[] parts = field.split(":");
    String hex = parts[0];
    ByteBuffer bytes = ByteBuffer.allocate(hex.length() / 2).order(ByteOrder.nativeOrder());
    for (int at = 0; at < hex.length(); at += 8) {
      bytes.putInt((int) Long.parseLong(hex.substring(at, at + 8), 16));
    }
    try {
      return new InetSocketAddress(
          InetAddress.getByAddress(bytes.array()), Integer.parseInt(parts[1], 16));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Cannot read the address " + field, e);
    }
  }
}
