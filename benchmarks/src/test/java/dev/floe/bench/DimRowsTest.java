package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.LongStream;
import org.apache.iceberg.data.GenericRecord;
import org.junit.jupiter.api.Test;

class DimRowsTest {

  @Test
  void clusteredDaysAreContiguousIdRangesOfNearEqualSize() {
    long rows = 1_003;
    int days = 10;
    for (int day = 0; day < days; day++) {
      long first = Layout.firstIndexOfDay(day, rows, days);
      assertThat(Layout.CLUSTERED.day(first, rows, days)).isEqualTo(day);
      if (first > 0) {
        assertThat(Layout.CLUSTERED.day(first - 1, rows, days)).isEqualTo(day - 1);
      }
      assertThat(Layout.firstIndexOfDay(day + 1, rows, days) - first).isBetween(100L, 101L);
    }
    assertThat(Layout.firstIndexOfDay(days, rows, days)).isEqualTo(rows);
  }

  @Test
  void theRandomLayoutPutsRowsOfEveryIdRangeIntoEveryDay() {
    long rows = 100_000;
    int days = 100;
    long[] perDay = new long[days];
    long[] firstHalfPerDay = new long[days];
    for (long i = 0; i < rows; i++) {
      int day = Layout.RANDOM.day(i, rows, days);
      perDay[day]++;
      if (i < rows / 2) {
        firstHalfPerDay[day]++;
      }
    }
    // ~1,000 rows a day, and no day's files can be skipped by id bounds: each has low and high ids.
    assertThat(Arrays.stream(perDay).min().getAsLong()).isGreaterThan(850);
    assertThat(Arrays.stream(perDay).max().getAsLong()).isLessThan(1150);
    assertThat(Arrays.stream(firstHalfPerDay).min().getAsLong()).isGreaterThan(350);
  }

  @Test
  void randomFilesOfADaySplitItsRowsEvenlyAndEachSpansTheWholeIdRange() {
    long rows = 1_000_000;
    int files = Layout.randomFilesPerDay(rows, 100, 1_000);
    long[] count = new long[files];
    long[] min = new long[files];
    long[] max = new long[files];
    Arrays.fill(min, Long.MAX_VALUE);
    for (long i = 0; i < rows; i++) {
      if (Layout.RANDOM.day(i, rows, 100) == 7) {
        int file = Layout.randomFile(i, files);
        count[file]++;
        min[file] = Math.min(min[file], i);
        max[file] = Math.max(max[file], i);
      }
    }

    assertThat(files).isEqualTo(10);
    assertThat(Arrays.stream(count).min().getAsLong()).isGreaterThan(850);
    assertThat(Arrays.stream(min).max().getAsLong()).isLessThan(rows / 100);
    assertThat(Arrays.stream(max).min().getAsLong()).isGreaterThan(rows - rows / 100);
    assertThat(Layout.randomFilesPerDay(rows, 100, 0)).isEqualTo(1);
    assertThat(Layout.randomFilesPerDay(rows, 100, 3_000)).isEqualTo(4);
    assertThat(Layout.randomFilesPerDay(rows, 100, 20_000)).isEqualTo(1);
  }

  @Test
  void updatesAreEveryOtherIdFromTheStartOfTheNewestDays() {
    // 7 updates over 3 hot days of 10 days of 100 rows: 3 + 2 + 2, from days 9, 8 and 7.
    long[] updated = DimRows.updatedIndexes(1_000, 10, 7, 3);

    assertThat(updated).containsExactly(700, 702, 800, 802, 900, 902, 904);
    DimRows rows = new DimRows(Layout.CLUSTERED, 1_000, 10, 7, 4, 3);
    assertThat(rows.isUpdated(902)).isTrue();
    assertThat(rows.isUpdated(901)).isFalse();
    assertThat(LongStream.range(0, 1_000).filter(rows::isUpdated).count()).isEqualTo(7);
    assertThat(rows.rowsAfterMerge()).isEqualTo(1_004);
  }

  @Test
  void anUpdateKeepsIdAndDayAndChangesTheOtherColumnsAndNewKeysGoToTheNewestDay() {
    DimRows rows = new DimRows(Layout.RANDOM, 1_000, 10, 7, 4, 3);
    GenericRecord v1 = GenericRecord.create(DimTables.DIM_SCHEMA);
    GenericRecord v2 = GenericRecord.create(DimTables.DIM_SCHEMA);
    GenericRecord fresh = GenericRecord.create(DimTables.DIM_SCHEMA);

    rows.fill(v1, 902, 1);
    rows.fill(v2, 902, 2);
    rows.fill(fresh, 1_000, 1);

    assertThat(v2.getField("id")).isEqualTo(903L).isEqualTo(v1.getField("id"));
    assertThat(v2.getField("created_day")).isEqualTo(v1.getField("created_day"));
    assertThat(v2.getField("v")).isNotEqualTo(v1.getField("v"));
    assertThat(v2.getField("amount")).isNotEqualTo(v1.getField("amount"));
    assertThat(v2.getField("version")).isEqualTo(2L);
    assertThat(fresh.getField("id")).isEqualTo(1_001L);
    assertThat(fresh.getField("created_day")).isEqualTo(DimRows.FIRST_DAY.plusDays(9));
  }
}
