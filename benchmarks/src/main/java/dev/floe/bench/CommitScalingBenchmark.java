package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.catalog.Catalog;

/**
 * Commit scaling (issue 15, goal 6): {@code --commits} successive single-slice overwrites of a
 * {@code --partitions}-day table with retention on, through Floe's commit core ({@link
 * CommitLoop}). Prints the median commit latency at commits 10, 100, 500 and 1,000, the ratio of
 * the last to the 10th (goal: ≤ 2), and the metadata bytes written per 100 commits. Run with {@code
 * benchmarks/run.sh commits}.
 */
public final class CommitScalingBenchmark {
  private static final int[] CHECKPOINTS = {10, 100, 500, 1000};

  private CommitScalingBenchmark() {}

  public static void main(String[] args) throws Exception {
    CommitOptions options;
    try {
      options = CommitOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(CommitOptions.USAGE);
      System.exit(2);
      return;
    }
    PrintStream out = System.out;
    BenchRuntime.printHeader(
        out, "Floe commit-scaling benchmark", "no Flink job: commit core only");
    out.println("- args: " + (args.length == 0 ? "(defaults)" : String.join(" ", args)));
    out.println("- load average before: " + loadAverage());
    Path root = BenchRuntime.workDir(options.workDir(), "floe-bench-commits-");
    // The harness is the edge: "now" for the retention's max_age (none is set) comes from here.
    Clock clock = Clock.systemUTC();
    try {
      CatalogConfig config = CatalogConfigLoader.embedded(root);
      Catalog catalog = Catalogs.open(config);
      try {
        if (options.warmup() > 0) {
          new CommitLoop(catalog, config, options, clock, System.err)
              .run("bench.warmup", options.warmup());
          System.err.printf("warm-up: %d commits done%n", options.warmup());
        }
        BenchRuntime.resetHeapPeaks();
        long started = System.nanoTime();
        CommitLoop loop = new CommitLoop(catalog, config, options, clock, System.err);
        List<CommitRecord> commits = loop.run("bench.commits", options.commits());
        double total = (System.nanoTime() - started) / 1e9;
        print(out, options, commits, loop, total);
      } finally {
        Catalogs.close(catalog);
      }
    } finally {
      if (options.keep()) {
        System.err.println("Catalog kept under " + root);
      } else {
        BenchRuntime.deleteTree(root);
      }
    }
    System.exit(0);
  }

  private static void print(
      PrintStream out,
      CommitOptions options,
      List<CommitRecord> commits,
      CommitLoop loop,
      double totalSeconds) {
    out.println("- load average after: " + loadAverage());
    out.printf(
        Locale.ROOT,
        "- %,d overwrites of %,d-row day slices on a %d-day table (pre-filled, one file per day),"
            + " %s; %d warm-up commits on a scratch table first%n",
        options.commits(),
        options.rowsPerCommit(),
        options.partitions(),
        options.retention()
            ? String.format(
                Locale.ROOT,
                "retention keep_last %d applied by Floe's expiry every %d commits (%d runs,"
                    + " %.1f s, not in the latencies)",
                options.keepLast(),
                options.expireEvery(),
                loop.expiries(),
                loop.expireSeconds())
            : "no retention",
        options.warmup());
    out.printf(
        Locale.ROOT,
        "- whole loop %.1f s (writing each slice's file, the commits, expiry, reading the"
            + " metadata sizes); heap peak ≤ %.2f GiB%n%n",
        totalSeconds,
        BenchRuntime.heapPeakBytes() / 1073741824.0);

    out.println(
        "| at commit | median commit ms (window) | min–max ms in window | snapshots in table |"
            + " slice's current content found by |");
    out.println("|---:|---:|---:|---:|---|");
    List<Integer> points = new ArrayList<>();
    for (int c : CHECKPOINTS) {
      if (c <= commits.size()) {
        points.add(c);
      }
    }
    if (!points.contains(commits.size())) {
      points.add(commits.size());
    }
    for (int at : points) {
      List<CommitRecord> window = commits.subList(Math.max(0, at - options.window()), at);
      Map<String, Integer> methods = new TreeMap<>();
      window.forEach(c -> methods.merge(c.method(), 1, Integer::sum));
      out.printf(
          Locale.ROOT,
          "| %,d | %.1f (commits %d–%d) | %.1f–%.1f | %d | %s |%n",
          at,
          CommitStats.medianAt(commits, at, options.window()),
          window.get(0).index(),
          at,
          window.stream().mapToDouble(CommitRecord::millis).min().orElse(Double.NaN),
          window.stream().mapToDouble(CommitRecord::millis).max().orElse(Double.NaN),
          commits.get(at - 1).snapshots(),
          methods);
    }
    int first = Math.min(10, commits.size());
    double ratio =
        CommitStats.medianAt(commits, commits.size(), options.window())
            / CommitStats.medianAt(commits, first, options.window());
    out.printf(
        Locale.ROOT,
        "%nGoal 6 (latency at commit %,d ≤ 2× at commit %d): %.2f×: %s.%n%n",
        commits.size(),
        first,
        ratio,
        ratio <= 2 ? "met" : "not met");

    out.println(
        "| commits | metadata.json bytes | manifest-list bytes | manifest bytes | total bytes |"
            + " per commit |");
    out.println("|---|---:|---:|---:|---:|---:|");
    int blocks = (commits.size() + 99) / 100;
    for (int b = 1; b <= blocks; b++) {
      long[] sums = CommitStats.bytesOfBlock(commits, b, 100);
      long sum = sums[0] + sums[1] + sums[2];
      int n = Math.min(commits.size(), b * 100) - (b - 1) * 100;
      out.printf(
          Locale.ROOT,
          "| %d–%d | %,d | %,d | %,d | %,d | %,d |%n",
          (b - 1) * 100 + 1,
          (b - 1) * 100 + n,
          sums[0],
          sums[1],
          sums[2],
          sum,
          sum / n);
    }
    out.println();
    out.println(
        "Every commit was verified (status committed, its snapshot at the head, total-records"
            + " unchanged), and afterwards the whole table's content hash equalled the last"
            + " content committed for each day.");
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
