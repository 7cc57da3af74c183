package dev.floe.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * One measured run: wall time, the JVM's CPU and GC time meanwhile, the CPU other processes took
 * meanwhile, and the run's memory high-water marks ({@link MemoryPeaks}). CPU / wall shows how much
 * of the cores a path keeps busy; GC time what its allocation costs; other cores whether a
 * neighbour distorted the run.
 *
 * @param heapPeakBytes heap high-water during the run (sum of pool peaks), -1 when not measured
 * @param rssPeakBytes process RSS high-water during the run, -1 when not measured
 */
record Sample(
    double wallSeconds,
    double cpuSeconds,
    double gcSeconds,
    double otherCores,
    long heapPeakBytes,
    long rssPeakBytes) {

  /** A run whose memory was not measured. */
  Sample(double wallSeconds, double cpuSeconds, double gcSeconds, double otherCores) {
    this(wallSeconds, cpuSeconds, gcSeconds, otherCores, -1, -1);
  }

  /**
   * Prepares {@code path} and runs it once, measuring the run only; verification is the caller's,
   * outside the timing.
   */
  static Sample of(WritePath path) throws Exception {
    path.prepare();
    MemoryPeaks.Mark memory = MemoryPeaks.start();
    long gc = gcMillis();
    HostLoad.Mark mark = HostLoad.mark();
    long start = System.nanoTime();
    path.execute();
    long wall = System.nanoTime() - start;
    double cpu = HostLoad.ownCpuSeconds() - mark.ownCpuSeconds();
    return new Sample(
        wall / 1e9,
        cpu,
        (gcMillis() - gc) / 1e3,
        mark.otherCores(),
        memory.heapPeakBytes(),
        memory.rssPeakBytes());
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }
}
