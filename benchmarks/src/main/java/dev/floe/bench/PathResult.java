package dev.floe.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The measured runs of one path for one slice size, summarised by medians.
 *
 * @param rows rows the slice holds after a run
 * @param rowsWritten rows one run writes: {@code rows}, or 0 for a path that writes none (the empty
 *     slice, a no-op rerun), which has a time but no throughput
 */
record PathResult(String name, long rows, long rowsWritten, List<Sample> samples) {

  PathResult {
    samples = List.copyOf(samples);
  }

  /** A path that writes the {@code rows} the slice holds. */
  PathResult(String name, long rows, List<Sample> samples) {
    this(name, rows, rows, samples);
  }

  double medianSeconds() {
    return median(Sample::wallSeconds);
  }

  double medianCpuSeconds() {
    return median(Sample::cpuSeconds);
  }

  double medianGcSeconds() {
    return median(Sample::gcSeconds);
  }

  double medianOtherCores() {
    return median(Sample::otherCores);
  }

  /**
   * The most CPU other processes took during one of the runs, in cores, or NaN when not measured.
   */
  double maxOtherCores() {
    return samples.stream()
        .mapToDouble(Sample::otherCores)
        .filter(cores -> !Double.isNaN(cores))
        .max()
        .orElse(Double.NaN);
  }

  double minSeconds() {
    return samples.stream().mapToDouble(Sample::wallSeconds).min().orElse(Double.NaN);
  }

  double maxSeconds() {
    return samples.stream().mapToDouble(Sample::wallSeconds).max().orElse(Double.NaN);
  }

  /** The highest heap high-water of the runs in bytes, or -1 when none was measured. */
  long heapPeakBytes() {
    return samples.stream().mapToLong(Sample::heapPeakBytes).max().orElse(-1);
  }

  /** The highest process RSS high-water of the runs in bytes, or -1 when none was measured. */
  long rssPeakBytes() {
    return samples.stream().mapToLong(Sample::rssPeakBytes).max().orElse(-1);
  }

  /**
   * This path's throughput as a share of {@code limit}'s (rows/s over rows/s; 0.8 means 80 % of the
   * limit's speed), or NaN when either writes no rows.
   */
  double throughputVs(PathResult limit) {
    return limit == null ? Double.NaN : rowsPerSecond() / limit.rowsPerSecond();
  }

  /**
   * Rows written per second of wall time, or NaN for a path that writes none: a no-op rerun's slice
   * holds its rows, but crediting them to its short time would give it many times the hardware's
   * throughput.
   */
  double rowsPerSecond() {
    return rowsWritten == 0 ? Double.NaN : rowsWritten / medianSeconds();
  }

  private double median(ToDoubleFunction<Sample> value) {
    return median(samples.stream().mapToDouble(value).boxed().toList());
  }

  /** The median; the mean of the two middle values for an even count. */
  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int mid = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
  }
}
