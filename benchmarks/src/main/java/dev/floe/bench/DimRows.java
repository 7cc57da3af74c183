package dev.floe.bench;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import org.apache.iceberg.data.GenericRecord;

/**
 * The merge benchmark's rows, as pure functions of a row index, so the target, the staging batch
 * and the expected result are all derived from the same definitions.
 *
 * <ul>
 *   <li>target: indexes {@code [0, rows)}, id {@code index + 1}, version 1, day by {@link Layout};
 *   <li>updates: every other index from the first row of each of the {@code hotDays} newest days of
 *       the clustered layout (so in that layout they lie in one file per hot day, given files of at
 *       least twice that many rows), version 2 with a new {@code v} and {@code amount}, same day as
 *       the target row (the row stays in its partition);
 *   <li>new keys: indexes {@code [rows, rows + newKeys)}, version 1, all in the newest day.
 * </ul>
 */
final class DimRows {
  static final LocalDate FIRST_DAY = LocalDate.of(2026, 1, 1);

  /** Amounts up to 9 999.99 (unscaled cents), within decimal(10,2). */
  private static final long MAX_CENTS = 1_000_000;

  /** 36^6: six base-36 characters of text per value, enough to defeat Parquet's dictionary. */
  private static final long TEXT_RANGE = 2_176_782_336L;

  private final Layout layout;
  private final long rows;
  private final int days;
  private final int newKeys;
  private final long[] updated;

  DimRows(Layout layout, long rows, int days, int updateKeys, int newKeys, int hotDays) {
    this.layout = layout;
    this.rows = rows;
    this.days = days;
    this.newKeys = newKeys;
    this.updated = updatedIndexes(rows, days, updateKeys, hotDays);
  }

  /** Sorted. */
  static long[] updatedIndexes(long rows, int days, int updateKeys, int hotDays) {
    long[] indexes = new long[updateKeys];
    int n = 0;
    for (int h = 0; h < hotDays; h++) {
      int count = updateKeys / hotDays + (h < updateKeys % hotDays ? 1 : 0);
      long first = Layout.firstIndexOfDay(days - 1 - h, rows, days);
      for (int j = 0; j < count; j++) {
        indexes[n++] = first + 2L * j;
      }
    }
    Arrays.sort(indexes);
    return indexes;
  }

  long rows() {
    return rows;
  }

  int days() {
    return days;
  }

  Layout layout() {
    return layout;
  }

  int newKeys() {
    return newKeys;
  }

  /** Target rows after a merge of the batch: the new keys are added, the updates replace rows. */
  long rowsAfterMerge() {
    return rows + newKeys;
  }

  long[] updatedIndexes() {
    return updated.clone();
  }

  boolean isUpdated(long index) {
    return Arrays.binarySearch(updated, index) >= 0;
  }

  /** The day of a target row or a new key. */
  int day(long index) {
    return index >= rows ? days - 1 : layout.day(index, rows, days);
  }

  /** Sets {@code record} (id, created_day, v, amount, version) to the row's given version. */
  void fill(GenericRecord record, long index, long version) {
    long mixed = StagingData.mix(index);
    record.set(0, index + 1);
    record.set(1, FIRST_DAY.plusDays(day(index)));
    record.set(
        2, "v" + version + "-" + Long.toString(Long.remainderUnsigned(mixed, TEXT_RANGE), 36));
    record.set(
        3,
        BigDecimal.valueOf(
            Long.remainderUnsigned(mixed >>> 20, MAX_CENTS) + 100 * (version - 1), 2));
    record.set(4, version);
  }
}
