package dev.floe.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * What the merge benchmark measures. Parsed by hand, like {@link BenchOptions}.
 *
 * @param targetRows target sizes to measure, one fresh catalog per size and layout
 * @param layouts how keys are laid out in the target's files
 * @param days day partitions of the target
 * @param rowsPerFile rows per data file (clustered: at most; random: about, files of a day get rows
 *     by a hash); 0 writes one file per day
 * @param batchKeys keys in the staging batch: the first half update existing keys, the rest are new
 * @param hotDays the updated keys come from this many days (clustered: that many files)
 * @param repeat measured runs per path; the median is reported
 * @param warmup unmeasured runs per path first
 * @param parallelism Flink parallelism of both jobs
 * @param profile sample stacks of one extra merge per size and layout
 * @param deepVerify after the runs, re-read both targets and compare them with the expected rows
 * @param workDir where the catalogs go; null means a fresh temp directory
 * @param keep keep the catalogs afterwards
 * @param waitQuiet before each measured run, wait (up to 3 min) until other processes are idle
 */
record MergeOptions(
    List<Long> targetRows,
    List<Layout> layouts,
    int days,
    long rowsPerFile,
    int batchKeys,
    int hotDays,
    int repeat,
    int warmup,
    int parallelism,
    boolean profile,
    boolean deepVerify,
    Path workDir,
    boolean keep,
    boolean waitQuiet) {

  static final String USAGE =
      """
      Usage: benchmarks/run.sh merge [--target-rows 100k,1M,5M] [--layouts clustered,random]
                                     [--days 100] [--rows-per-file 0] [--batch-keys 1000]
                                     [--hot-days 5] [--repeat 3] [--warmup 1] [--parallelism 2]
                                     [--profile] [--no-deep-verify] [--dir DIR] [--keep]
                                     [--no-wait-quiet]
        --target-rows   target sizes, comma-separated; 1_000_000, 1M and 500k are accepted
        --layouts       clustered (ids ascending across days and files: key bounds prune),
                        random (every day holds ids from the whole range: nothing prunes)
        --days          day partitions of the target
        --rows-per-file rows per data file (clustered: at most, random: about); 0 = one
                        file per day
        --batch-keys    staging batch: half updates of existing keys, half new keys
        --hot-days      the updated keys come from this many of the newest days
        --repeat        measured runs per path (median reported)
        --warmup        unmeasured runs per path first
        --parallelism   Flink parallelism of the merge and the rebuild
        --profile       sample stacks of one extra merge per size and layout
        --no-deep-verify  skip re-reading both targets at the end (counts are still checked)
        --dir           put the catalogs under DIR instead of a temp directory
        --keep          do not delete the catalogs afterwards
        --no-wait-quiet do not wait for other processes to go idle before each measured run
      """;

  MergeOptions {
    targetRows = List.copyOf(targetRows);
    layouts = List.copyOf(layouts);
  }

  static MergeOptions defaults() {
    return new MergeOptions(
        List.of(100_000L, 1_000_000L, 5_000_000L),
        List.of(Layout.CLUSTERED, Layout.RANDOM),
        100,
        0,
        1000,
        5,
        3,
        1,
        2,
        false,
        true,
        null,
        false,
        true);
  }

  static MergeOptions parse(String... args) {
    Builder b = new Builder(defaults());
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--target-rows" -> b.targetRows = rowList(value(args, ++i, arg));
        case "--layouts" -> b.layouts = layouts(value(args, ++i, arg));
        case "--days" -> b.days = atLeast(value(args, ++i, arg), arg, 1);
        case "--rows-per-file" -> b.rowsPerFile = rowsPerFile(value(args, ++i, arg));
        case "--batch-keys" -> b.batchKeys = atLeast(value(args, ++i, arg), arg, 2);
        case "--hot-days" -> b.hotDays = atLeast(value(args, ++i, arg), arg, 1);
        case "--repeat" -> b.repeat = atLeast(value(args, ++i, arg), arg, 1);
        case "--warmup" -> b.warmup = atLeast(value(args, ++i, arg), arg, 0);
        case "--parallelism" -> b.parallelism = atLeast(value(args, ++i, arg), arg, 1);
        case "--profile" -> b.profile = true;
        case "--no-deep-verify" -> b.deepVerify = false;
        case "--dir" -> b.workDir = Path.of(value(args, ++i, arg));
        case "--keep" -> b.keep = true;
        case "--no-wait-quiet" -> b.waitQuiet = false;
        default -> throw new IllegalArgumentException("Cannot use argument '" + arg + "'");
      }
    }
    MergeOptions o = b.build();
    o.validate();
    return o;
  }

  /** Keys of the batch that update existing rows: the first half. */
  int updateKeys() {
    return batchKeys / 2;
  }

  /** Keys of the batch the target does not hold yet. */
  int newKeys() {
    return batchKeys - updateKeys();
  }

  /** Updated keys taken from one hot day, at most (the first days take one more when uneven). */
  int updatesPerHotDay() {
    return (updateKeys() + hotDays - 1) / hotDays;
  }

  /**
   * The updated keys of a hot day are every other id from the day's first one, so each day must
   * hold twice as many rows as it gives updates.
   */
  private void validate() {
    if (hotDays > days) {
      throw new IllegalArgumentException(
          "Cannot use --hot-days " + hotDays + ": the target has only " + days + " days");
    }
    long smallest = targetRows.stream().mapToLong(Long::longValue).min().orElseThrow();
    long needed = 2L * updatesPerHotDay() * days;
    if (smallest < needed) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "Cannot use --target-rows %,d: %d updated keys from %d hot days need %,d rows per"
                  + " day, so at least %,d rows over %d days",
              smallest,
              updateKeys(),
              hotDays,
              2L * updatesPerHotDay(),
              needed,
              days));
    }
  }

  private static List<Long> rowList(String text) {
    List<Long> rows = new ArrayList<>();
    for (String part : text.split(",")) {
      rows.add(BenchOptions.parseRowCount(part));
    }
    return rows;
  }

  private static long rowsPerFile(String text) {
    return text.trim().equals("0") ? 0 : BenchOptions.parseRowCount(text);
  }

  private static List<Layout> layouts(String text) {
    LinkedHashSet<Layout> layouts = new LinkedHashSet<>();
    for (String part : text.split(",")) {
      layouts.add(Layout.parse(part));
    }
    return List.copyOf(layouts);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException("Cannot use " + option + ": it needs a value");
    }
    return args[i];
  }

  private static int atLeast(String text, String option, int min) {
    try {
      int n = Integer.parseInt(text.trim().replace("_", ""));
      if (n < min) {
        throw new IllegalArgumentException(
            "Cannot use " + option + " " + text + ": must be >= " + min);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Cannot read " + option + " '" + text + "'", e);
    }
  }

  /** A mutable copy, so parse() can set one field at a time without 14 with-methods. */
  private static final class Builder {
    List<Long> targetRows;
    List<Layout> layouts;
    int days;
    long rowsPerFile;
    int batchKeys;
    int hotDays;
    int repeat;
    int warmup;
    int parallelism;
    boolean profile;
    boolean deepVerify;
    Path workDir;
    boolean keep;
    boolean waitQuiet;

    Builder(MergeOptions o) {
      targetRows = o.targetRows;
      layouts = o.layouts;
      days = o.days;
      rowsPerFile = o.rowsPerFile;
      batchKeys = o.batchKeys;
      hotDays = o.hotDays;
      repeat = o.repeat;
      warmup = o.warmup;
      parallelism = o.parallelism;
      profile = o.profile;
      deepVerify = o.deepVerify;
      workDir = o.workDir;
      keep = o.keep;
      waitQuiet = o.waitQuiet;
    }

    MergeOptions build() {
      return new MergeOptions(
          targetRows,
          layouts,
          days,
          rowsPerFile,
          batchKeys,
          hotDays,
          repeat,
          warmup,
          parallelism,
          profile,
          deepVerify,
          workDir,
          keep,
          waitQuiet);
    }
  }
}
