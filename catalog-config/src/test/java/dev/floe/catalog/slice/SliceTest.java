package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SliceTest {
  private static final Slice OCT_3 =
      new Slice(
          "order_date",
          Slice.ColumnKind.DATE,
          SliceUnit.DAY,
          LocalDateTime.of(2026, 10, 3, 0, 0),
          LocalDateTime.of(2026, 10, 4, 0, 0));
  private static final Slice HOUR_5 =
      new Slice(
          "ts",
          Slice.ColumnKind.TIMESTAMP,
          SliceUnit.HOUR,
          LocalDateTime.of(2026, 10, 3, 5, 0),
          LocalDateTime.of(2026, 10, 3, 6, 0));

  @Test
  void containsADateFromItsStartInclusiveToItsEndExclusive() {
    assertThat(OCT_3.contains(day(2026, 10, 2))).isFalse();
    assertThat(OCT_3.contains(day(2026, 10, 3))).isTrue();
    assertThat(OCT_3.contains(day(2026, 10, 4))).isFalse();
  }

  @Test
  void containsATimestampFromItsStartInclusiveToItsEndExclusive() {
    long start = micros(LocalDateTime.of(2026, 10, 3, 5, 0));
    long end = micros(LocalDateTime.of(2026, 10, 3, 6, 0));

    assertThat(HOUR_5.contains(start - 1)).isFalse();
    assertThat(HOUR_5.contains(start)).isTrue();
    assertThat(HOUR_5.contains(end - 1)).isTrue();
    assertThat(HOUR_5.contains(end)).isFalse();
  }

  @Test
  void keepsBoundsBeforeTheEpochExact() {
    Slice slice =
        new Slice(
            "ts",
            Slice.ColumnKind.TIMESTAMPTZ,
            SliceUnit.DAY,
            LocalDateTime.of(1969, 12, 31, 0, 0),
            LocalDateTime.of(1970, 1, 1, 0, 0));

    assertThat(slice.startInternal()).isEqualTo(-86_400_000_000L);
    assertThat(slice.endInternal()).isZero();
    assertThat(slice.contains(-1)).isTrue();
    assertThat(slice.contains(0)).isFalse();
  }

  @Test
  void labelsADaySliceWithDatesAndAnHourSliceWithMinutes() {
    assertThat(OCT_3.label()).isEqualTo("order_date=[2026-10-03,2026-10-04)");
    assertThat(OCT_3).hasToString("order_date=[2026-10-03,2026-10-04)");
    assertThat(HOUR_5.label()).isEqualTo("ts=[2026-10-03T05:00,2026-10-03T06:00)");
    assertThat(HOUR_5.value()).isEqualTo("2026-10-03T05");
  }

  @Test
  void aYearBefore1000IsWrittenWithFourDigitsAsSliceTakesIt() {
    // "999" is no --slice value; hints and backfill ids print value().
    java.time.LocalDateTime start = java.time.LocalDateTime.parse("0999-01-01T00:00");
    Slice year = new Slice("d", Slice.ColumnKind.DATE, SliceUnit.YEAR, start, start.plusYears(1));

    assertThat(year.value()).isEqualTo("0999");
    assertThat(SliceResolver.parse(year.value(), "d").start()).isEqualTo(start);
  }

  @Test
  void readsItsOwnLabelBackAgainstTheSchema() {
    org.apache.iceberg.Schema schema =
        new org.apache.iceberg.Schema(
            org.apache.iceberg.types.Types.NestedField.required(
                1, "order_date", org.apache.iceberg.types.Types.DateType.get()),
            org.apache.iceberg.types.Types.NestedField.optional(
                2, "ts", org.apache.iceberg.types.Types.TimestampType.withoutZone()),
            org.apache.iceberg.types.Types.NestedField.optional(
                3, "name", org.apache.iceberg.types.Types.StringType.get()));
    Slice month =
        new Slice(
            "ts",
            Slice.ColumnKind.TIMESTAMP,
            SliceUnit.MONTH,
            LocalDateTime.of(2026, 10, 1, 0, 0),
            LocalDateTime.of(2026, 11, 1, 0, 0));

    assertThat(Slice.fromLabel(OCT_3.label(), schema)).contains(OCT_3);
    assertThat(Slice.fromLabel(HOUR_5.label(), schema)).contains(HOUR_5);
    assertThat(Slice.fromLabel(month.label(), schema)).contains(month);
    assertThat(Scope.fromLabel("*", schema)).contains(Scope.wholeTable());
    assertThat(Slice.fromLabel("name=[2026-10-03,2026-10-04)", schema)).isEmpty();
    assertThat(Slice.fromLabel("gone=[2026-10-03,2026-10-04)", schema)).isEmpty();
    assertThat(Slice.fromLabel("order_date=[2026-10-03,2026-10-05)", schema)).isEmpty();
    assertThat(Slice.fromLabel("order_date=2026-10-03", schema)).isEmpty();
    assertThat(Slice.fromLabel("order_date=[yesterday,today)", schema)).isEmpty();
    assertThat(OCT_3.onSchema(schema)).contains(OCT_3);
    assertThat(HOUR_5.onSchema(new org.apache.iceberg.Schema(schema.findField("order_date"))))
        .isEmpty();
  }

  @Test
  void equalLabelsOverlap() {
    assertThat(Slice.labelsOverlap(OCT_3.label(), OCT_3.label())).isTrue();
  }

  @Test
  void adjacentSlicesDoNotOverlap() {
    String oct4 = "order_date=[2026-10-04,2026-10-05)";

    assertThat(Slice.labelsOverlap(OCT_3.label(), oct4)).isFalse();
    assertThat(Slice.labelsOverlap(oct4, OCT_3.label())).isFalse();
  }

  @Test
  void aMonthOverlapsTheDaysItContains() {
    String october = "order_date=[2026-10-01,2026-11-01)";
    String november = "order_date=[2026-11-01,2026-12-01)";

    assertThat(Slice.labelsOverlap(october, OCT_3.label())).isTrue();
    assertThat(Slice.labelsOverlap(OCT_3.label(), october)).isTrue();
    assertThat(Slice.labelsOverlap(november, OCT_3.label())).isFalse();
  }

  @Test
  void anHourOverlapsItsDayButNotTheNextDay() {
    assertThat(Slice.labelsOverlap(HOUR_5.label(), "ts=[2026-10-03,2026-10-04)")).isTrue();
    assertThat(Slice.labelsOverlap(HOUR_5.label(), "ts=[2026-10-04,2026-10-05)")).isFalse();
    assertThat(Slice.labelsOverlap(HOUR_5.label(), "ts=[2026-10-03T06:00,2026-10-03T07:00)"))
        .isFalse();
  }

  @Test
  void slicesOfDifferentColumnsDoNotOverlap() {
    assertThat(Slice.labelsOverlap(OCT_3.label(), "ship_date=[2026-10-03,2026-10-04)")).isFalse();
  }

  @Test
  void anUnreadableLabelCountsAsOverlapping() {
    assertThat(Slice.labelsOverlap("garbage", OCT_3.label())).isTrue();
    assertThat(Slice.labelsOverlap(OCT_3.label(), null)).isTrue();
    assertThat(Slice.labelsOverlap("order_date=[yesterday,today)", OCT_3.label())).isTrue();
  }

  @Test
  void aLabelComparedAgainIsReadTheSameWay() {
    String oct4 = "order_date=[2026-10-04,2026-10-05)";
    String october = "order_date=[2026-10-01,2026-11-01)";

    for (int round = 0; round < 3; round++) {
      assertThat(Slice.labelsOverlap(oct4, OCT_3.label())).isFalse();
      assertThat(Slice.labelsOverlap(oct4, october)).isTrue();
      assertThat(Slice.labelsOverlap(october, oct4)).isTrue();
      assertThat(Slice.labelsOverlap(oct4, oct4)).isTrue();
    }
  }

  @Test
  void aLabelWithUnreadableBoundsOverlapsItsColumnOnly() {
    String unreadable = "order_date=[yesterday,today)";

    assertThat(Slice.labelsOverlap(unreadable, "ship_date=[2026-10-03,2026-10-04)")).isFalse();
    assertThat(Slice.labelsOverlap(unreadable, OCT_3.label())).isTrue();
    assertThat(Slice.labelsOverlap(OCT_3.label(), unreadable)).isTrue();
  }

  @Test
  void anUnreadableBoundMattersOnlyWhereTheAnswerDependsOnIt() {
    // Starts after OCT_3 ends: no overlap, whatever its end (the 32nd cannot be read).
    assertThat(Slice.labelsOverlap("order_date=[2026-10-05,2026-10-32)", OCT_3.label())).isFalse();
    assertThat(Slice.labelsOverlap(OCT_3.label(), "order_date=[2026-10-05,2026-10-32)")).isTrue();
    assertThat(Slice.labelsOverlap("order_date=[2026-10-32,2026-11-05)", OCT_3.label())).isTrue();
  }

  @Test
  void overlapsComparesColumnsAndInstants() {
    Slice october =
        new Slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.MONTH,
            LocalDateTime.of(2026, 10, 1, 0, 0),
            LocalDateTime.of(2026, 11, 1, 0, 0));
    Slice oct4 =
        new Slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            LocalDateTime.of(2026, 10, 4, 0, 0),
            LocalDateTime.of(2026, 10, 5, 0, 0));

    assertThat(october.overlaps(OCT_3)).isTrue();
    assertThat(OCT_3.overlaps(oct4)).isFalse();
    assertThat(OCT_3.overlaps(HOUR_5)).isFalse();
  }

  private static long day(int year, int month, int day) {
    return LocalDate.of(year, month, day).toEpochDay();
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
  }
}
