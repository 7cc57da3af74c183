package dev.floe.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What to measure. Parsed by hand (no picocli) so the harness has no option framework of its own.
 *
 * @param rows the slice sizes to measure, one fresh catalog each
 * @param repeat measured runs per path; the median is reported
 * @param warmup unmeasured runs per path before the measured ones (JIT, class loading)
 * @param parallelism Flink parallelism of every path, and the number of source files
 * @param profile run each loading path once more under a stack sampler and print where time goes
 * @param deepVerify after the runs, re-read both targets and compare their content hash
 * @param workDir where the catalogs go; null means a fresh temp directory
 * @param keep keep the catalogs afterwards (to inspect them)
 * @param waitQuiet before each measured run, wait (up to 3 min) until other processes are idle
 * @param splitPerFile make each staging file its own read split (a read hint on both queries), so
 *     the source really reads with {@code parallelism} tasks; by default Iceberg packs up to 128 MB
 *     of files into one split, and its Flink source then reads a whole day with one task
 */
record BenchOptions(
    List<Long> rows,
    int repeat,
    int warmup,
    int parallelism,
    boolean profile,
    boolean deepVerify,
    Path workDir,
    boolean keep,
    boolean waitQuiet,
    boolean splitPerFile) {

  static final String USAGE =
      """
      Usage: benchmarks/run.sh [--rows 1000000,10000000] [--repeat 3] [--warmup 1]
                               [--parallelism 2] [--profile] [--no-deep-verify]
                               [--split-per-file] [--dir DIR] [--keep] [--no-wait-quiet]
        --rows          slice sizes, comma-separated; 1_000_000, 1M and 500k are accepted
        --repeat        measured runs per path (median reported)
        --warmup        unmeasured runs per path first
        --parallelism   Flink parallelism of every path (also the number of source files)
        --profile       sample stacks of one extra run per path and print where time goes
        --split-per-file  one read split per staging file (default: Iceberg's packing, which
                        puts a day of up to 128 MB into ONE split, so the source runs with 1 task)
        --no-deep-verify  skip re-reading the targets at the end (row counts are still checked)
        --dir           put the catalogs under DIR instead of a temp directory
        --keep          do not delete the catalogs afterwards
        --no-wait-quiet do not wait for other processes to go idle before each measured run
      """;

  static BenchOptions defaults() {
    return new BenchOptions(
        List.of(1_000_000L, 10_000_000L), 3, 1, 2, false, true, null, false, true, false);
  }

  static BenchOptions parse(String... args) {
    BenchOptions o = defaults();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--rows" -> o = o.withRows(parseRows(value(args, ++i, arg)));
        case "--repeat" -> o = o.withRepeat(positive(value(args, ++i, arg), arg, 1));
        case "--warmup" -> o = o.withWarmup(positive(value(args, ++i, arg), arg, 0));
        case "--parallelism" -> o = o.withParallelism(positive(value(args, ++i, arg), arg, 1));
        case "--profile" -> o = o.withProfile(true);
        case "--no-deep-verify" -> o = o.withDeepVerify(false);
        case "--dir" -> o = o.withWorkDir(Path.of(value(args, ++i, arg)));
        case "--keep" -> o = o.withKeep(true);
        case "--no-wait-quiet" -> o = o.withWaitQuiet(false);
        case "--split-per-file" -> o = o.withSplitPerFile(true);
        default -> throw new IllegalArgumentException("Cannot use argument '" + arg + "'");
      }
    }
    return o;
  }

  /** Accepts 1000000, 1_000_000, 1M and 500k: row counts are easy to mistype. */
  static long parseRowCount(String text) {
    String t = text.trim().replace("_", "").toLowerCase(Locale.ROOT);
    long factor = 1;
    if (t.endsWith("m")) {
      factor = 1_000_000;
      t = t.substring(0, t.length() - 1);
    } else if (t.endsWith("k")) {
      factor = 1_000;
      t = t.substring(0, t.length() - 1);
    }
    try {
      long rows = Math.multiplyExact(Long.parseLong(t), factor);
      if (rows < 1) {
        throw new IllegalArgumentException("Cannot use row count '" + text + "': must be >= 1");
      }
      return rows;
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("Cannot read row count '" + text + "'", e);
    }
  }

  private static List<Long> parseRows(String text) {
    List<Long> rows = new ArrayList<>();
    for (String part : text.split(",")) {
      rows.add(parseRowCount(part));
    }
    return List.copyOf(rows);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException("Cannot use " + option + ": it needs a value");
    }
    return args[i];
  }

  private static int positive(String text, String option, int min) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n < min) {
        throw new IllegalArgumentException(
            "Cannot use " + option + " " + text + ": must be >= " + min);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Cannot read " + option + " '" + text + "'", e);
    }
  }

  BenchOptions withRows(List<Long> v) {
    return new BenchOptions(
        v,
        repeat,
        warmup,
        parallelism,
        profile,
        deepVerify,
        workDir,
        keep,
        waitQuiet,
        splitPerFile);
  }

  BenchOptions withRepeat(int v) {
    return new BenchOptions(
        rows, v, warmup, parallelism, profile, deepVerify, workDir, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withWarmup(int v) {
    return new BenchOptions(
        rows, repeat, v, parallelism, profile, deepVerify, workDir, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withParallelism(int v) {
    return new BenchOptions(
        rows, repeat, warmup, v, profile, deepVerify, workDir, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withProfile(boolean v) {
    return new BenchOptions(
        rows, repeat, warmup, parallelism, v, deepVerify, workDir, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withDeepVerify(boolean v) {
    return new BenchOptions(
        rows, repeat, warmup, parallelism, profile, v, workDir, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withWorkDir(Path v) {
    return new BenchOptions(
        rows, repeat, warmup, parallelism, profile, deepVerify, v, keep, waitQuiet, splitPerFile);
  }

  BenchOptions withKeep(boolean v) {
    return new BenchOptions(
        rows,
        repeat,
        warmup,
        parallelism,
        profile,
        deepVerify,
        workDir,
        v,
        waitQuiet,
        splitPerFile);
  }

  BenchOptions withWaitQuiet(boolean v) {
    return new BenchOptions(
        rows, repeat, warmup, parallelism, profile, deepVerify, workDir, keep, v, splitPerFile);
  }

  BenchOptions withSplitPerFile(boolean v) {
    return new BenchOptions(
        rows, repeat, warmup, parallelism, profile, deepVerify, workDir, keep, waitQuiet, v);
  }
}
