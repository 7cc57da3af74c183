package dev.floe.flink.maintain;

/**
 * A least-squares line {@code y = intercept + slope * x} through points such as (rows, file bytes)
 * or (entries, manifest bytes): the intercept is what every file costs whatever it holds (a Parquet
 * footer, an Avro header), the slope what each row or entry adds.
 *
 * @param intercept the fixed part, never below 0 nor above the smallest {@code y}
 * @param slope the part per unit of {@code x}, above 0
 */
record LinearFit(double intercept, double slope) {

  /**
   * The line through the points, or null when they cannot place one: fewer than two points, {@code
   * x} values whose largest is not at least half as large again as the smallest (near-equal ones
   * place the line by the noise of {@code y}, which can take most of a file for overhead), or a
   * line that does not rise.
   */
  static LinearFit of(long[] x, long[] y) {
    int n = x.length;
    if (n < 2) {
      return null;
    }
    long minX = Long.MAX_VALUE;
    long maxX = Long.MIN_VALUE;
    for (long value : x) {
      minX = Math.min(minX, value);
      maxX = Math.max(maxX, value);
    }
    // Near-equal x values tell noise, not a line: 1000 and 1001 rows at 1,000,000 and 1,000,300
    // bytes would give a slope of 300 per row and 700,000 bytes of overhead per file.
    if (2 * maxX < 3 * minX) {
      return null;
    }
    double meanX = 0;
    double meanY = 0;
    long minY = Long.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      meanX += x[i];
      meanY += y[i];
      minY = Math.min(minY, y[i]);
    }
    meanX /= n;
    meanY /= n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - meanX) * (x[i] - meanX);
      sxy += (x[i] - meanX) * (y[i] - meanY);
    }
    if (sxx == 0) {
      return null;
    }
    double slope = sxy / sxx;
    if (slope <= 0) {
      return null;
    }
    double intercept = Math.min(minY, Math.max(0, meanY - slope * meanX));
    return new LinearFit(intercept, slope);
  }

  /** The line's value at {@code x}. */
  long at(long x) {
    return Math.round(intercept + slope * x);
  }
}
