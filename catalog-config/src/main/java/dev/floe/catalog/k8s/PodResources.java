package dev.floe.catalog.k8s;

import dev.floe.catalog.error.InvalidInputException;
import java.util.regex.Pattern;

/**
 * What one JobManager or TaskManager pod asks for: the operator's {@code resource} block.
 *
 * @param cpu CPU cores, e.g. {@code 1} or {@code 0.5}
 * @param memory process memory as Flink reads it, e.g. {@code 2048m} or {@code 2g}
 */
public record PodResources(double cpu, String memory) {
  public static final double DEFAULT_CPU = 1.0;
  public static final String DEFAULT_MEMORY = "2048m";

  private static final Pattern MEMORY = Pattern.compile("\\d+(\\.\\d+)?\\s*[A-Za-z]{0,3}");

  public PodResources {
    InvalidInputException.check(
        cpu > 0 && Double.isFinite(cpu),
        "Cannot render a pod with cpu %s: give a positive number of cores, e.g. 1 or 0.5",
        cpu);
    InvalidInputException.check(
        memory != null && MEMORY.matcher(memory).matches(),
        "Cannot render a pod with memory '%s': give a size such as 2048m or 2g",
        memory);
  }

  /** One core and 2048m, enough for one slice of a small batch job. */
  public static PodResources defaults() {
    return new PodResources(DEFAULT_CPU, DEFAULT_MEMORY);
  }
}
