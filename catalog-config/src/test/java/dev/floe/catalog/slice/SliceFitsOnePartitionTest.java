package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Whether every row of a slice lands in one partition, so a writer need not partition per row. */
class SliceFitsOnePartitionTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "order_date", Types.DateType.get()),
          Types.NestedField.required(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(4, "region", Types.StringType.get()),
          Types.NestedField.optional(5, "day_number", Types.IntegerType.get()),
          Types.NestedField.optional(6, "tstz", Types.TimestampType.withZone()));

  private static final Slice OCT_3 =
      slice(
          "order_date", Slice.ColumnKind.DATE, SliceUnit.DAY, LocalDateTime.of(2026, 10, 3, 0, 0));
  private static final Slice OCTOBER =
      slice(
          "order_date",
          Slice.ColumnKind.DATE,
          SliceUnit.MONTH,
          LocalDateTime.of(2026, 10, 1, 0, 0));

  @Test
  void aDaySliceFitsOneDayOrCoarserPartitionOfItsColumn() {
    assertThat(OCT_3.fitsOnePartition(spec().identity("order_date").build())).isTrue();
    assertThat(OCT_3.fitsOnePartition(spec().day("order_date").build())).isTrue();
    assertThat(OCT_3.fitsOnePartition(spec().month("order_date").build())).isTrue();
    assertThat(OCT_3.fitsOnePartition(spec().identity("order_date").month("order_date").build()))
        .isTrue();
  }

  @Test
  void aMonthSliceSpansManyDayPartitions() {
    assertThat(OCTOBER.fitsOnePartition(spec().day("order_date").build())).isFalse();
    assertThat(OCTOBER.fitsOnePartition(spec().identity("order_date").build())).isFalse();
    assertThat(OCTOBER.fitsOnePartition(spec().month("order_date").build())).isTrue();
    assertThat(OCTOBER.fitsOnePartition(spec().month("order_date").identity("order_date").build()))
        .isFalse();
  }

  @Test
  void anHourSliceFitsADayPartitionButNotAnIdentityOneOnTheTimestamp() {
    Slice hour5 =
        slice(
            "ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, LocalDateTime.of(2026, 10, 3, 5, 0));

    assertThat(hour5.fitsOnePartition(spec().hour("ts").build())).isTrue();
    assertThat(hour5.fitsOnePartition(spec().day("ts").build())).isTrue();
    assertThat(hour5.fitsOnePartition(spec().identity("ts").build())).isFalse();
  }

  @Test
  void aDaySliceOfATimestampSpansManyHourPartitions() {
    Slice day =
        slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.DAY, LocalDateTime.of(2026, 10, 3, 0, 0));

    assertThat(day.fitsOnePartition(spec().day("ts").build())).isTrue();
    assertThat(day.fitsOnePartition(spec().hour("ts").build())).isFalse();
  }

  @Test
  void anyPartitionFieldOnAnotherColumnSplitsTheSlice() {
    assertThat(OCT_3.fitsOnePartition(spec().day("order_date").identity("region").build()))
        .isFalse();
    assertThat(OCT_3.fitsOnePartition(spec().day("order_date").bucket("id", 4).build())).isFalse();
    assertThat(OCT_3.fitsOnePartition(spec().day("ts").build())).isFalse();
  }

  @Test
  void anOrderBreakingTransformOfTheSliceColumnSplitsTheSlice() {
    // bucket(order_date) of the first and last day can agree while the days between differ
    assertThat(OCT_3.fitsOnePartition(spec().bucket("order_date", 1).build())).isFalse();
  }

  @Test
  void aTimestampWithZoneSliceFitsLikeATimestamp() {
    Slice hour5 =
        slice(
            "tstz",
            Slice.ColumnKind.TIMESTAMPTZ,
            SliceUnit.HOUR,
            LocalDateTime.of(2026, 10, 3, 5, 0));

    assertThat(hour5.fitsOnePartition(spec().day("tstz").build())).isTrue();
    assertThat(hour5.fitsOnePartition(spec().hour("tstz").build())).isTrue();
    assertThat(hour5.fitsOnePartition(spec().identity("tstz").build())).isFalse();
  }

  @Test
  void aYearSliceFitsAYearPartitionOnly() {
    Slice year =
        slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.YEAR,
            LocalDateTime.of(2026, 1, 1, 0, 0));

    assertThat(year.fitsOnePartition(spec().year("order_date").build())).isTrue();
    assertThat(year.fitsOnePartition(spec().month("order_date").build())).isFalse();
  }

  @Test
  void aVoidFieldOnAnotherColumnLeavesOnePartition() {
    assertThat(OCT_3.fitsOnePartition(spec().day("order_date").alwaysNull("region").build()))
        .isTrue();
  }

  @Test
  void aDateSliceBefore1970FitsItsDayPartition() {
    Slice dec31 =
        slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            LocalDateTime.of(1969, 12, 31, 0, 0));

    assertThat(dec31.fitsOnePartition(spec().day("order_date").build())).isTrue();
    assertThat(dec31.fitsOnePartition(spec().month("order_date").build())).isTrue();
  }

  @Test
  void aTimestampSliceBefore1970NeverFitsOnePartition() {
    LocalDateTime dec31 = LocalDateTime.of(1969, 12, 31, 0, 0);
    Slice day = slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.DAY, dec31);
    Slice lastHour = slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, dec31.plusHours(23));

    assertThat(day.fitsOnePartition(spec().day("ts").build())).isFalse();
    assertThat(lastHour.fitsOnePartition(spec().hour("ts").build())).isFalse();
    assertThat(lastHour.fitsOnePartition(spec().year("ts").build())).isFalse();
  }

  @Test
  void icebergsDayOfATimestampBefore1970IsOneDayLowJustUnderASecondPastMidnight() {
    // Why the rule above: the day of every instant of 1969-12-31 is not the same in Iceberg 1.11.
    var day = Transforms.day().bind(Types.TimestampType.withoutZone());
    long midnight = micros(LocalDateTime.of(1969, 12, 31, 0, 0));

    assertThat(day.apply(midnight)).isEqualTo(-1);
    assertThat(day.apply(midnight + 999_999)).isEqualTo(-2);
    assertThat(day.apply(midnight + 1_000_000)).isEqualTo(-1);
  }

  @Test
  void anUnpartitionedTableIsOnePartition() {
    assertThat(OCT_3.fitsOnePartition(PartitionSpec.unpartitioned())).isTrue();
    assertThat(OCTOBER.fitsOnePartition(PartitionSpec.unpartitioned())).isTrue();
  }

  @Test
  void aSliceColumnMissingFromTheSpecsSchemaDoesNotFit() {
    Slice other =
        slice(
            "shipped_on",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            LocalDateTime.of(2026, 10, 3, 0, 0));

    assertThat(other.fitsOnePartition(spec().day("order_date").build())).isFalse();
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
  }

  @Test
  void icebergFilesTheFirstInstantOfATimestampSliceBefore1970AtAUnitStartUnderTheUnitBefore() {
    Slice dec31 =
        slice(
            "ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.DAY, LocalDateTime.of(1969, 12, 31, 0, 0));
    PartitionSpec byDay = spec().identity("region").day("ts").build();

    // Iceberg's own day of 1969-12-31T00:00:00.999999 is 1969-12-30 (-2), not -1: position 1.
    assertThat(dec31.icebergMisplacedFirstInstant(byDay)).isEqualTo(Map.of(1, -2));
    assertThat(Transforms.day().bind(Types.TimestampType.withoutZone()).apply(-86_400_000_000L))
        .isEqualTo(-1);
    assertThat(dec31.firstMisplaceableInstant()).isEqualTo("1969-12-31T00:00:00.999999");
    assertThat(dec31.icebergMisplacedFirstInstant(spec().hour("ts").build()))
        .isEqualTo(Map.of(0, -25));
    assertThat(dec31.icebergMisplacedFirstInstant(spec().identity("ts").build())).isEmpty();
    assertThat(dec31.icebergMisplacedFirstInstant(spec().day("tstz").build())).isEmpty();
    assertThat(dec31.icebergMisplacedFirstInstant(PartitionSpec.unpartitioned())).isEmpty();
    // A start that is no unit start of the partition: 0.999999 s later is the same unit.
    assertThat(dec31.icebergMisplacedFirstInstant(spec().month("ts").build())).isEmpty();
    Slice hour5 =
        slice(
            "ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, LocalDateTime.of(1969, 12, 31, 5, 0));
    assertThat(hour5.icebergMisplacedFirstInstant(byDay)).isEmpty();
    // From 1970 on, and for dates, Iceberg is right.
    Slice jan1 =
        slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.DAY, LocalDateTime.of(1970, 1, 1, 0, 0));
    assertThat(jan1.icebergMisplacedFirstInstant(byDay)).isEmpty();
    Slice dateDec31 =
        slice(
            "order_date",
            Slice.ColumnKind.DATE,
            SliceUnit.DAY,
            LocalDateTime.of(1969, 12, 31, 0, 0));
    assertThat(dateDec31.icebergMisplacedFirstInstant(spec().day("order_date").build())).isEmpty();
    Slice tz1969 =
        slice(
            "tstz",
            Slice.ColumnKind.TIMESTAMPTZ,
            SliceUnit.YEAR,
            LocalDateTime.of(1969, 1, 1, 0, 0));
    assertThat(tz1969.icebergMisplacedFirstInstant(spec().year("tstz").build()))
        .isEqualTo(Map.of(0, -2));
    assertThat(tz1969.firstMisplaceableInstant()).isEqualTo("1969-01-01T00:00:00.999999Z");
  }

  private static PartitionSpec.Builder spec() {
    return PartitionSpec.builderFor(SCHEMA);
  }

  /** The slice of {@code unit} on {@code column} that starts at {@code start}. */
  private static Slice slice(
      String column, Slice.ColumnKind kind, SliceUnit unit, LocalDateTime start) {
    return new Slice(column, kind, unit, start, unit.next(start));
  }
}
