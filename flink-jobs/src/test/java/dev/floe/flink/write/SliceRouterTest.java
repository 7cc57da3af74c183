package dev.floe.flink.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;

/** Each row goes to the slice whose interval holds its slice column: start inside, end outside. */
class SliceRouterTest {
  private static final RowType BY_DATE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new DateType()}, new String[] {"id", "order_date"});
  private static final RowType BY_TIMESTAMP =
      RowType.of(
          new LogicalType[] {new BigIntType(), new TimestampType(6)}, new String[] {"id", "ts"});

  @Test
  void dayRowsGoToTheirDayFromItsFirstToItsLastDay() {
    SliceRouter router = new SliceRouter(days("order_date", 3), BY_DATE);

    assertThat(router.size()).isEqualTo(3);
    assertThat(router.indexOf(date("2026-10-01"))).isZero();
    assertThat(router.indexOf(date("2026-10-02"))).isEqualTo(1);
    assertThat(router.indexOf(date("2026-10-03"))).isEqualTo(2);
    assertThatThrownBy(() -> router.indexOf(date("2026-09-30")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> router.indexOf(date("2026-10-04")))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> router.indexOf(GenericRowData.of(1L, null)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void hourRowsChangeSliceExactlyAtTheHour() {
    LocalDateTime start = LocalDateTime.of(2026, 10, 3, 5, 0);
    List<Slice> hours =
        List.of(
            new Slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, start, start.plusHours(1)),
            new Slice(
                "ts",
                Slice.ColumnKind.TIMESTAMP,
                SliceUnit.HOUR,
                start.plusHours(1),
                start.plusHours(2)));
    SliceRouter router = new SliceRouter(hours, BY_TIMESTAMP);

    assertThat(router.indexOf(timestamp(start))).isZero();
    assertThat(router.indexOf(timestamp(start.plusHours(1).minusNanos(1_000)))).isZero();
    assertThat(router.indexOf(timestamp(start.plusHours(1)))).isEqualTo(1);
    assertThat(router.indexOf(timestamp(start.plusHours(2).minusNanos(1_000)))).isEqualTo(1);
  }

  @Test
  void slicesWithAGapBetweenThemAreRefused() {
    List<Slice> days = days("order_date", 3);

    assertThatThrownBy(() -> new SliceRouter(List.of(days.get(0), days.get(2)), BY_DATE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not follow each other");
  }

  /** {@code count} day slices from 2026-10-01. */
  private static List<Slice> days(String column, int count) {
    LocalDateTime first = LocalDateTime.of(2026, 10, 1, 0, 0);
    return java.util.stream.IntStream.range(0, count)
        .mapToObj(
            d ->
                new Slice(
                    column,
                    Slice.ColumnKind.DATE,
                    SliceUnit.DAY,
                    first.plusDays(d),
                    first.plusDays(d + 1)))
        .toList();
  }

  private static GenericRowData date(String day) {
    return GenericRowData.of(1L, (int) LocalDate.parse(day).toEpochDay());
  }

  private static GenericRowData timestamp(LocalDateTime at) {
    return GenericRowData.of(1L, TimestampData.fromLocalDateTime(at));
  }
}
