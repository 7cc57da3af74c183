package dev.floe.it.spark;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One Spark process per test JVM for every test class that asks for a {@link SparkEngine}
 * parameter: its start-up (≈ 10 s on 2 cores) is the cost, so it is paid once, and the process is
 * stopped by its pid when the JVM exits. Held by the class, not in JUnit's root store: with two
 * test JVMs (floe.test.forks) Surefire hands each JVM one class at a time, and each class then gets
 * a root store of its own, which closed and restarted Spark for every class. Each test class
 * registers its own catalogs in it.
 */
public final class SharedSpark implements ParameterResolver {
  private static SparkEngine engine;
  // A start that failed, given again to every test that asks instead of a new start each.
  private static RuntimeException failed;

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == SparkEngine.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return engine();
  }

  private static synchronized SparkEngine engine() {
    if (failed != null) {
      throw new IllegalStateException("Cannot use Spark: its start failed", failed);
    }
    if (engine == null) {
      try {
        SparkEngine started = SparkEngine.start();
        Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-shared-spark"));
        engine = started;
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
    }
    return engine;
  }
}
