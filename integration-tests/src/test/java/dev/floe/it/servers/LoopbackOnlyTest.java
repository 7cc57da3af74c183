package dev.floe.it.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The loopback check tells a wildcard listener from a loopback one (so it can fail). */
class LoopbackOnlyTest {

  @Test
  void aListenerOnEveryInterfaceIsExposedAndALoopbackOneIsNot() throws Exception {
    assertThat(LoopbackOnly.otherAddresses())
        .as("this check needs a non-loopback IPv4 address on the machine")
        .isNotEmpty();
    try (ServerSocket wildcard = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"));
        ServerSocket loopback = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      assertThat(LoopbackOnly.exposures(wildcard.getLocalPort())).isNotEmpty();
      assertThat(LoopbackOnly.exposures(loopback.getLocalPort())).isEmpty();
    }
  }
}
