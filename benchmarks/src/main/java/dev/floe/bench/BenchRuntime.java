package dev.floe.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.iceberg.IcebergBuild;

/** What every benchmark main needs around its runs: the machine header, heap peaks, clean-up. */
final class BenchRuntime {

  private BenchRuntime() {}

  /** The title and the lines that say where the numbers come from (date, machine, versions). */
  static void printHeader(PrintStream out, String title) {
    printHeader(out, title, "local MiniCluster per run");
  }

  /**
   * @param flinkClusters how the runs get their Flink cluster, e.g. "local MiniCluster per run"
   */
  static void printHeader(PrintStream out, String title, String flinkClusters) {
    printHeader(out, title, flinkClusters, "embedded catalog (SQLite + local FS)");
  }

  /**
   * @param storage where the tables live, e.g. "embedded catalog (SQLite + local FS)"
   */
  static void printHeader(PrintStream out, String title, String flinkClusters, String storage) {
    out.println("## " + title);
    out.println();
    out.println(
        "- date: "
            + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            + " UTC");
    out.printf(
        Locale.ROOT,
        "- machine: %d CPUs (availableProcessors), %s %s%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"));
    out.printf(
        Locale.ROOT,
        "- java: %s (%s %s), heap max %.1f GiB%n",
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        System.getProperty("java.vm.version"),
        maxHeapGib());
    out.printf(
        Locale.ROOT,
        "- Flink %s (%s), Iceberg %s, %s%n",
        EnvironmentInformation.getVersion(),
        flinkClusters,
        IcebergBuild.version(),
        storage);
  }

  /** The given work directory (created), or a fresh temporary one named with {@code prefix}. */
  static Path workDir(Path given, String prefix) throws IOException {
    return given != null ? Files.createDirectories(given) : Files.createTempDirectory(prefix);
  }

  static double maxHeapGib() {
    return Runtime.getRuntime().maxMemory() / 1073741824.0;
  }

  /** Starts a new slice size: forgets the heap peaks of earlier runs. */
  static void resetHeapPeaks() {
    MemoryPeaks.clearHighWater();
  }

  /**
   * The largest heap high-water of any run since {@link #resetHeapPeaks} (each run resets the pool
   * peaks before it starts). An upper bound: each pool's peak may come from a different moment.
   */
  static long heapPeakBytes() {
    return MemoryPeaks.heapHighWaterBytes();
  }

  static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + root, e);
    }
  }
}
