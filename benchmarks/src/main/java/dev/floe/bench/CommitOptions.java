package dev.floe.bench;

import java.nio.file.Path;

/**
 * What the commit-scaling benchmark measures (issue 15, goal 6).
 *
 * @param commits successive single-slice overwrites to time
 * @param partitions days in the table; commit k overwrites day {@code (k - 1) % partitions}
 * @param rowsPerCommit rows of each slice (and of each day of the pre-filled table)
 * @param window commits whose median latency is reported at each checkpoint (the window ends there)
 * @param keepLast the table's retention, {@code floe.retention.keep-last}; 0 turns retention off
 * @param expireEvery run Floe's expiry ({@code floe maintain --expire}) after every this many
 *     commits; timed apart from the commits
 * @param warmup commits on a scratch table first (JIT, class loading), not reported
 * @param workDir where the catalog goes; null means a fresh temp directory
 * @param keep keep the catalog afterwards
 */
record CommitOptions(
    int commits,
    int partitions,
    int rowsPerCommit,
    int window,
    int keepLast,
    int expireEvery,
    int warmup,
    Path workDir,
    boolean keep) {

  static final String USAGE =
      """
      Usage: benchmarks/run.sh commits [--commits 1000] [--partitions 365] [--rows-per-commit 100]
                                       [--window 10] [--keep-last 20] [--expire-every 10]
                                       [--warmup 30] [--dir DIR] [--keep]
        --commits          successive single-slice overwrites through Floe's commit core
        --partitions       days in the table (pre-filled, one file each); commits cycle over them
        --rows-per-commit  rows per slice
        --window           commits per latency median (the window ends at 10, 100, 500, 1000)
        --keep-last        retention: floe.retention.keep-last (0: no retention, no expiry)
        --expire-every     run Floe's expiry after every N commits (timed apart)
        --warmup           commits on a scratch table first, not reported
      """;

  CommitOptions {
    require(commits >= 1, "--commits", commits, 1);
    require(partitions >= 1, "--partitions", partitions, 1);
    require(rowsPerCommit >= 1, "--rows-per-commit", rowsPerCommit, 1);
    require(window >= 1, "--window", window, 1);
    require(keepLast >= 0, "--keep-last", keepLast, 0);
    require(expireEvery >= 1, "--expire-every", expireEvery, 1);
    require(warmup >= 0, "--warmup", warmup, 0);
  }

  static CommitOptions parse(String... args) {
    int commits = 1000;
    int partitions = 365;
    int rows = 100;
    int window = 10;
    int keepLast = 20;
    int expireEvery = 10;
    int warmup = 30;
    Path dir = null;
    boolean keep = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--commits" -> commits = number(args, ++i, arg);
        case "--partitions" -> partitions = number(args, ++i, arg);
        case "--rows-per-commit" -> rows = number(args, ++i, arg);
        case "--window" -> window = number(args, ++i, arg);
        case "--keep-last" -> keepLast = number(args, ++i, arg);
        case "--expire-every" -> expireEvery = number(args, ++i, arg);
        case "--warmup" -> warmup = number(args, ++i, arg);
        case "--dir" -> dir = Path.of(value(args, ++i, arg));
        case "--keep" -> keep = true;
        default -> throw new IllegalArgumentException("Cannot use argument '" + arg + "'");
      }
    }
    return new CommitOptions(
        commits, partitions, rows, window, keepLast, expireEvery, warmup, dir, keep);
  }

  boolean retention() {
    return keepLast > 0;
  }

  private static int number(String[] args, int i, String option) {
    String text = value(args, i, option);
    try {
      return Math.toIntExact(BenchOptions.parseRowCount(text));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("Cannot use " + option + " " + text + ": too large", e);
    } catch (IllegalArgumentException e) {
      if (text.trim().equals("0")) {
        return 0;
      }
      throw new IllegalArgumentException("Cannot read " + option + " '" + text + "'", e);
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException("Cannot use " + option + ": it needs a value");
    }
    return args[i];
  }

  private static void require(boolean ok, String option, int value, int min) {
    if (!ok) {
      throw new IllegalArgumentException(
          "Cannot use " + option + " " + value + ": must be >= " + min);
    }
  }
}
