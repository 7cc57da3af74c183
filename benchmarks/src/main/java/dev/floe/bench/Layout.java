package dev.floe.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the merge target's keys are spread over its day partitions (and so over its files).
 *
 * <ul>
 *   <li>{@link #CLUSTERED}: ids ascend with the day, and within a day from file to file, so every
 *       file holds a narrow id range of its own and its key bounds (min/max) prune a merge down to
 *       the files that really hold a key of the batch. Typical of ids that grow with time.
 *   <li>{@link #RANDOM}: each row's day is a hash of its id, and so is its file within the day, so
 *       every file holds ids from the whole range and no file can be excluded by its bounds: the
 *       worst case for copy-on-write.
 * </ul>
 */
enum Layout {
  CLUSTERED,
  RANDOM;

  /** Decorrelates the random layout's days from the value columns, which hash the same index. */
  private static final long DAY_SALT = 0x5DEECE66DL;

  /** And its files within a day from its day. */
  private static final long FILE_SALT = 0x2545F4914F6CDD1DL;

  /** The day (0-based) of the row at {@code index} in a target of {@code rows} rows. */
  int day(long index, long rows, int days) {
    return switch (this) {
      case CLUSTERED -> (int) (index * days / rows);
      case RANDOM -> (int) Long.remainderUnsigned(StagingData.mix(index ^ DAY_SALT), days);
    };
  }

  /**
   * Random: which of a day's {@code files} the row at {@code index} goes to. Each file then holds
   * about the same number of rows, with ids from the whole range.
   */
  static int randomFile(long index, int files) {
    return (int) Long.remainderUnsigned(StagingData.mix(index ^ FILE_SALT), files);
  }

  /**
   * Random: files per day for files of about {@code rowsPerFile} rows (0: one file a day); days
   * hold {@code rows / days} rows on average.
   */
  static int randomFilesPerDay(long rows, int days, long rowsPerFile) {
    if (rowsPerFile == 0) {
      return 1;
    }
    long perDay = (rows + days - 1) / days;
    return (int) Math.max(1, (perDay + rowsPerFile - 1) / rowsPerFile);
  }

  /** Clustered: the first index whose day is {@code day}, i.e. ceil(day * rows / days). */
  static long firstIndexOfDay(int day, long rows, int days) {
    return (day * rows + days - 1) / days;
  }

  String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Layout parse(String text) {
    for (Layout layout : values()) {
      if (layout.text().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return layout;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use layout '"
            + text
            + "' (expected "
            + Arrays.stream(values()).map(Layout::text).collect(Collectors.joining(" or "))
            + ")");
  }
}
