package dev.floe.flink.session;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets this JVM listens on, read from Linux's {@code /proc}: the sockets among this
 * process's file descriptors that {@code /proc/self/net/tcp} and {@code tcp6} list in state LISTEN.
 */
final class ListeningSockets {
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /** Every address and port this JVM listens on now. */
  static Set<InetSocketAddress> ofThisJvm() throws IOException {
    Set<String> inodes = socketInodes();
    Set<InetSocketAddress> listening = new HashSet<>();
    for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      List<String> lines = Files.readAllLines(path);
      for (String line : lines.subList(1, lines.size())) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        String[] fields = line.trim().split("\\s+");
        if (fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
          listening.add(address(fields[1]));
        }
      }
    }
    return listening;
  }

  private static Set<String> socketInodes() throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException closedMeanwhile) {
          continue;
        }
        if (target.startsWith("socket:[")) {
          inodes.add(target.substring("socket:[".length(), target.length() - 1));
        }
      }
    }
    return inodes;
  }

  /** What this JVM listens on now and did not in {@code before}, as {@code /address:port} texts. */
  static List<String> openedSince(Set<InetSocketAddress> before) throws IOException {
    return ofThisJvm().stream()
        .filter(socket -> !before.contains(socket))
        .map(InetSocketAddress::toString)
        .sorted()
        .toList();
  }

  /** {@code 0100007F:1F90} is 127.0.0.1:8080: the address as 32-bit words, each little-endian. */
  private static InetSocketAddress address(String field) throws UnknownHostException {
    String[] parts = field.split(":");
    String hex = parts[0];
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + (3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
  }
}
