package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's /proc (for servers that pick their own
 * ports, like Spark's driver and block manager): {@code 127.0.0.1:port} or {@code 0.0.0.0:port}.
 */
public final class ListeningSockets {
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /** {@code address:port} of every listening socket of {@code pid}, IPv4-mapped shown as IPv4. */
  public static List<String> of(long pid) {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
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
      throw new UncheckedIOException("Cannot list the sockets of pid " + pid, e);
    }
    List<String> listening = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      try {
        for (String line : Files.readAllLines(Path.of(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length > 9 && f[3].equals(LISTEN) && inodes.contains(f[9])) {
            listening.add(address(f[1]));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + table, e);
      }
    }
    return listening;
  }

  /** {@code 0100007F:1F90} (little-endian IPv4) or its 32-digit IPv6 form to {@code a.b.c.d:p}. */
  static String address(String hex) {
    String[] parts = hex.split(":");
    int port = Integer.parseInt(parts[1], 16);
    String ip = parts[0];
    if (ip.length() == 32) {
      if (!ip.startsWith("0000000000000000FFFF0000")) {
        return "[" + ip + "]:" + port;
      }
      ip = ip.substring(24);
    }
    long value = Long.parseLong(ip, 16);
    return String.format(
            "%d.%d.%d.%d", value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >> 24)
        + ":"
        + port;
  }
}
