package dev.floe.flink.session;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;

/**
 * Loads Flink's Pekko RPC system from the class path, for Floe's own processes ({@code bin/floe},
 * tests, benchmarks), which put {@code flink-rpc-akka} itself on the class path instead of Flink's
 * {@code flink-rpc-akka-loader}. The loader unpacks a 21 MB jar into the temporary directory at
 * every start and loads it in a class loader of its own, which a class-data archive cannot cover.
 *
 * <p>It yields to Flink's own loader: on a Flink cluster, whose class path holds the loader and not
 * {@code flink-rpc-akka}, Flink's is used and this one is never asked.
 */
public final class ClasspathRpcSystemLoader implements RpcSystemLoader {
  private static final String PEKKO_RPC_SYSTEM =
      "org.apache.flink.runtime.rpc.pekko.PekkoRpcSystem";

  /** Flink's own loader has priority 0 and is tried first; lower values are tried earlier. */
  @Override
  public int getLoadPriority() {
    return 1000;
  }

  @Override
  public RpcSystem loadRpcSystem(Configuration config) {
    // By name: on a cluster the class is absent, and a direct reference would fail this class's
    // verification when the service loader instantiates it to read its priority.
    try {
      return (RpcSystem)
          Class.forName(PEKKO_RPC_SYSTEM, true, ClasspathRpcSystemLoader.class.getClassLoader())
              .getDeclaredConstructor()
              .newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException(
          "Cannot load Flink's RPC system: "
              + PEKKO_RPC_SYSTEM
              + " is not on the class path (add flink-rpc-akka, or flink-rpc-akka-loader)",
          e);
    }
  }
}
