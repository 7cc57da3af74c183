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
   * The line through the points, or null when they cannot place one: fewer than two distinct {@code
   * x} values, or a line that does not rise (near-equal {@code x} values whose {@code y} noise tips
   * it: its intercept would take a whole file for overhead).
   */
  static LinearFit of(long[] x, long[] y) {
    int n = x.length;
    if (n < 2) {
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
