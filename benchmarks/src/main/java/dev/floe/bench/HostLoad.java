package dev.floe.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU used by other processes on this host, from {@code /proc/stat} minus this JVM's own CPU time
 * (its threads and the child processes it started). Benchmarks run on shared 2-core machines where
 * a neighbour's Maven build can double a run's wall time; this number says when that happened, and
 * {@link #awaitQuiet} lets the harness wait it out. Linux only; elsewhere it reports NaN and never
 * waits.
 */
final class HostLoad {
  private static final Path PROC_STAT = Path.of("/proc/stat");
  private static final Path PROC_SELF_STAT = Path.of("/proc/self/stat");

  /** Linux reports /proc/stat in USER_HZ, which is 100 on every mainstream kernel. */
  private static final double TICKS_PER_SECOND = 100.0;

  private HostLoad() {}

  /** A reading to diff against later. */
  record Mark(double hostBusySeconds, double ownCpuSeconds, long nanos) {

    /** Cores' worth of CPU other processes used since this mark (NaN when unknown). */
    double otherCores() {
      Mark now = mark();
      double wall = (now.nanos - nanos) / 1e9;
      if (Double.isNaN(hostBusySeconds) || Double.isNaN(now.hostBusySeconds) || wall <= 0) {
        return Double.NaN;
      }
      double other = (now.hostBusySeconds - hostBusySeconds) - (now.ownCpuSeconds - ownCpuSeconds);
      return Math.max(0, other / wall);
    }
  }

  static Mark mark() {
    return new Mark(hostBusySeconds(), ownCpuSeconds(), System.nanoTime());
  }

  /**
   * Waits until other processes use less than {@code maxOtherCores} over a 2-second window, or
   * until {@code maxWaitSeconds} passed.
   *
   * @return seconds waited, or -1 when it gave up
   */
  static double awaitQuiet(double maxOtherCores, double maxWaitSeconds)
      throws InterruptedException {
    long start = System.nanoTime();
    while (true) {
      Mark mark = mark();
      Thread.sleep(2000);
      double other = mark.otherCores();
      double waited = (System.nanoTime() - start) / 1e9;
      if (Double.isNaN(other) || other < maxOtherCores) {
        return waited;
      }
      if (waited >= maxWaitSeconds) {
        return -1;
      }
    }
  }

  /** Busy time of all CPUs: every /proc/stat column except idle and iowait. */
  private static double hostBusySeconds() {
    try {
      String[] f = Files.readAllLines(PROC_STAT).get(0).trim().split("\\s+");
      // cpu user nice system idle iowait irq softirq steal ...
      long busy = 0;
      for (int i = 1; i < Math.min(f.length, 9); i++) {
        if (i != 4 && i != 5) {
          busy += Long.parseLong(f[i]);
        }
      }
      return busy / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /**
   * CPU time of this JVM plus that of the child processes it started and reaped. Hadoop's local
   * file system forks {@code chmod} (and sometimes {@code ls}) for every file it creates when its
   * native library is absent, ≈ 13 ms of CPU per file on the 2-core dev box; without the children a
   * run that writes many files looks as if a neighbour had been busy.
   */
  static double ownCpuSeconds() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime() / 1e9 + childCpuSeconds();
    }
    return Double.NaN;
  }

  /** Reaped children's user + system time ({@code cutime}, {@code cstime}), 0 when unknown. */
  static double childCpuSeconds() {
    try {
      return childCpuSeconds(Files.readString(PROC_SELF_STAT));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** From a {@code /proc/<pid>/stat} line; the command name in parentheses may hold spaces. */
  static double childCpuSeconds(String stat) {
    // Fields after "(comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND;
  }
}
