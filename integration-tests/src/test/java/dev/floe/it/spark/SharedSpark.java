package dev.floe.it.spark;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One Spark process for every test class of the run that asks for a {@link SparkEngine} parameter:
 * its start-up (≈ 10 s on 2 cores) is the cost, so it is paid once, and the process is stopped by
 * its pid when the run ends. Each test class registers its own catalogs in it.
 */
public final class SharedSpark implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedSpark.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == SparkEngine.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent("spark", key -> SparkEngine.start(), SparkEngine.class);
  }
}
