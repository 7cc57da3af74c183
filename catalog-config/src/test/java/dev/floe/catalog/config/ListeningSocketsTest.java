package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {

  @Test
  void readsTheAddressesLinuxPrintsInTheMachinesByteOrder() throws Exception {
    boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    assertThat(ListeningSockets.address((little ? "0100007F" : "7F000001") + ":1F90"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080));
    String mapped =
        little ? "0000000000000000FFFF00000100007F" : "00000000000000000000FFFF7F000001";
    assertThat(ListeningSockets.address(mapped + ":0050"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 80));
    String ipv6Loopback =
        little ? "00000000000000000000000001000000" : "00000000000000000000000000000001";
    assertThat(ListeningSockets.address(ipv6Loopback + ":0050"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByName("::1"), 80));
  }

  @Test
  void findsASocketThisJvmListensOnAndItsAddress() throws Exception {
    long pid = ProcessHandle.current().pid();
    try (ServerSocket loopback = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        ServerSocket everywhere = new ServerSocket(0)) {
      assertThat(ListeningSockets.of(pid))
          .contains(
              new InetSocketAddress(InetAddress.getByName("127.0.0.1"), loopback.getLocalPort()))
          .anySatisfy(
              socket -> {
                assertThat(socket.getPort()).isEqualTo(everywhere.getLocalPort());
                assertThat(socket.getAddress().isAnyLocalAddress()).isTrue();
              });
    }
  }
}
