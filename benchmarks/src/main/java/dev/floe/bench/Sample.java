package dev.floe.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * One measured run: wall time, the JVM's CPU and GC time meanwhile, and the CPU other processes
 * took meanwhile. CPU / wall shows how much of the cores a path keeps busy; GC time what its
 * allocation costs; other cores whether a neighbour distorted the run.
 */
record Sample(double wallSeconds, double cpuSeconds, double gcSeconds, double otherCores) {

  /** Runs {@code path} once and measures it; verification is the caller's, outside the timing. */
  static Sample of(WritePath path) throws Exception {
    long gc = gcMillis();
    HostLoad.Mark mark = HostLoad.mark();
    long start = System.nanoTime();
    path.execute();
    long wall = System.nanoTime() - start;
    double cpu = HostLoad.ownCpuSeconds() - mark.ownCpuSeconds();
    return new Sample(wall / 1e9, cpu, (gcMillis() - gc) / 1e3, mark.otherCores());
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }
}
