package dev.floe.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Memory high-water marks of one measured run (issue 15, goal 9), read in this JVM:
 *
 * <ul>
 *   <li><b>heap</b>: the sum of the heap pools' peak usage ({@link MemoryPoolMXBean#getPeakUsage},
 *       reset before the run). An upper bound: each pool's peak may come from another moment, and
 *       the young pools' peaks show how far the collector let garbage grow, not only live data.
 *   <li><b>RSS</b>: the process's resident-set high-water ({@code VmHWM} of {@code
 *       /proc/self/status}), reset before the run by writing {@code 5} to {@code
 *       /proc/self/clear_refs} (Linux 4.0+). It is per process, so it includes what earlier runs
 *       left resident (heap the JVM committed and did not give back): the run's own peak is at most
 *       this, and at least {@link Mark#rssGrowthBytes} above the RSS it started with.
 * </ul>
 *
 * Linux only for RSS; elsewhere it reports -1.
 */
final class MemoryPeaks {
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  /** The largest heap peak any run reported since {@link BenchRuntime#resetHeapPeaks}. */
  private static long heapHighWater;

  private MemoryPeaks() {}

  /** Before a run: resets the pool peaks and the RSS high-water, remembers the current RSS. */
  static Mark start() {
    resetHeapPools();
    boolean reset = resetRssHighWater();
    return new Mark(reset, rssBytes("VmRSS:"));
  }

  /** What {@link #start} reset, read back after the run. */
  record Mark(boolean rssReset, long rssAtStart) {

    /** Heap peak since {@link #start}, in bytes (also kept as the size's overall peak). */
    long heapPeakBytes() {
      long peak = poolPeaks();
      synchronized (MemoryPeaks.class) {
        heapHighWater = Math.max(heapHighWater, peak);
      }
      return peak;
    }

    /** The RSS high-water since {@link #start}, or -1 when it could not be reset or read. */
    long rssPeakBytes() {
      return rssReset ? rssBytes("VmHWM:") : -1;
    }
  }

  /** Forgets what earlier runs peaked at (a new slice size starts). */
  static synchronized void clearHighWater() {
    heapHighWater = 0;
    resetHeapPools();
  }

  /** The largest heap peak of any run since {@link #clearHighWater}, or of the pools now. */
  static synchronized long heapHighWaterBytes() {
    return Math.max(heapHighWater, poolPeaks());
  }

  private static void resetHeapPools() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long poolPeaks() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  private static boolean resetRssHighWater() {
    try {
      Files.writeString(CLEAR_REFS, "5");
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static long rssBytes(String field) {
    try {
      return statusBytes(Files.readString(STATUS), field);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * A size field of {@code /proc/<pid>/status}, e.g. {@code "VmHWM: 218416 kB"}, in bytes.
   *
   * @throws IllegalArgumentException when the field is missing or not in kB
   */
  static long statusBytes(String status, String field) {
    for (String line : status.split("\n")) {
      if (line.startsWith(field)) {
        String[] parts = line.substring(field.length()).trim().split("\\s+");
        if (parts.length == 2 && parts[1].equals("kB")) {
          return Long.parseLong(parts[0]) * 1024;
        }
        throw new IllegalArgumentException("Cannot read " + field + " from '" + line + "'");
      }
    }
    throw new IllegalArgumentException("Cannot find " + field + " in /proc/self/status");
  }
}
