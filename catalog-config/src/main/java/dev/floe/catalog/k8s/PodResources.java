package dev.floe.catalog.k8s;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one JobManager or TaskManager pod asks for: the operator's {@code resource} block.
 *
 * @param cpu CPU cores, e.g. {@code 1} or {@code 0.5}
 * @param memory process memory: a whole number with a unit, as Flink reads it ({@code 2048m},
 *     {@code 2g}, {@code 2gb}) or as Kubernetes does ({@code 2Gi}, {@code 2048Mi}); both are
 *     1024-based
 */
public record PodResources(double cpu, String memory) {
  public static final double DEFAULT_CPU = 1.0;
  public static final String DEFAULT_MEMORY = "2048m";

  private static final Pattern MEMORY =
      Pattern.compile("(\\d+)\\s*(k|kb|ki|m|mb|mi|g|gb|gi|t|tb|ti)", Pattern.CASE_INSENSITIVE);

  public PodResources {
    InvalidInputException.check(
        cpu > 0 && Double.isFinite(cpu),
        "Cannot render a pod with cpu %s: give a positive number of cores, e.g. 1 or 0.5",
        cpu);
    InvalidInputException.check(
        memory != null && MEMORY.matcher(memory.trim()).matches() && mebibytes(memory) >= 1,
        "Cannot render a pod with memory '%s': give a whole size with a unit, such as 2048m, 2g"
            + " or 2Gi",
        Shown.value(memory));
  }

  /** One core and 2048m, enough for one slice of a small batch job. */
  public static PodResources defaults() {
    return new PodResources(DEFAULT_CPU, DEFAULT_MEMORY);
  }

  /** The memory in MiB (rounded down): one value whichever way it was written. */
  public long mebibytes() {
    return mebibytes(memory);
  }

  private static long mebibytes(String memory) {
    Matcher matcher = MEMORY.matcher(memory.trim());
    if (!matcher.matches()) {
      return 0;
    }
    long value;
    try {
      value = Long.parseLong(matcher.group(1));
    } catch (NumberFormatException tooLong) {
      return 0;
    }
    return switch (Character.toLowerCase(matcher.group(2).charAt(0))) {
      case 'k' -> value / 1024;
      case 'm' -> value;
      case 'g' -> value <= Long.MAX_VALUE >> 10 ? value << 10 : 0;
      default -> value <= Long.MAX_VALUE >> 20 ? value << 20 : 0;
    };
  }
}
