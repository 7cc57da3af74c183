package dev.floe.it.servers;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Checks the rule every test server follows: it listens on 127.0.0.1 only. A port that answers on
 * 127.0.0.1 must refuse a connection on every other IPv4 address of this machine.
 */
public final class LoopbackOnly {
  private LoopbackOnly() {}

  /** This machine's IPv4 addresses other than loopback (empty on a machine with none). */
  public static List<InetAddress> otherAddresses() {
    List<InetAddress> addresses = new ArrayList<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
            addresses.add(address);
          }
        }
      }
    } catch (SocketException e) {
      throw new IllegalStateException("Cannot list network interfaces", e);
    }
    return addresses;
  }

  /** The addresses of {@link #otherAddresses} on which {@code port} accepts a connection. */
  public static List<String> exposures(int port) {
    List<String> open = new ArrayList<>();
    for (InetAddress address : otherAddresses()) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(address, port), 1000);
        open.add(address.getHostAddress() + ":" + port);
      } catch (IOException refused) {
        // What we want: nothing listens there.
      }
    }
    return open;
  }
}
