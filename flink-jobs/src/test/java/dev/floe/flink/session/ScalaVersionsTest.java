package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.junit.jupiter.api.Test;

/**
 * Floe's processes put Flink's planner and Pekko RPC on the class path without Flink's isolating
 * loaders. {@code flink-rpc-akka} bundles its own copy of the Scala library and the planner needs
 * {@code scala-library}: the class path then holds two copies of every Scala class, which is only
 * safe while they are the same release.
 */
class ScalaVersionsTest {

  @Test
  void everyScalaLibraryOnTheClassPathIsTheSameRelease() throws IOException {
    Map<String, String> versions = new TreeMap<>();
    List<URL> found =
        Collections.list(getClass().getClassLoader().getResources("library.properties"));
    for (URL url : found) {
      Properties properties = new Properties();
      try (InputStream in = url.openStream()) {
        properties.load(in);
      }
      String version = properties.getProperty("maven.version.number");
      if (version != null) {
        versions.put(url.toString(), version);
      }
    }
    // The planner's scala-library and the copy inside flink-rpc-akka.
    assertThat(versions).as("Scala libraries on the class path").hasSizeGreaterThanOrEqualTo(2);
    assertThat(versions.values().stream().distinct())
        .as("Scala releases on the class path: %s", versions)
        .hasSize(1);
  }

  @Test
  void flinkLoadsItsRpcSystemFromTheClassPath() throws Exception {
    RpcSystem rpc = RpcSystem.load(new Configuration());
    try {
      assertThat(rpc.getClass().getName())
          .isEqualTo("org.apache.flink.runtime.rpc.pekko.PekkoRpcSystem");
      // Not from a loader's unpacked jar: the same class loader as the rest of the class path.
      assertThat(rpc.getClass().getClassLoader()).isSameAs(RpcSystem.class.getClassLoader());
    } finally {
      rpc.close();
    }
  }
}
