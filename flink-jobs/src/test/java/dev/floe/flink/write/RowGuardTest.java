package dev.floe.flink.write;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** The row guard lets exactly the rows of the slice through: from its start up to its end. */
class RowGuardTest {
  private static final RowType BY_DATE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new DateType()}, new String[] {"id", "order_date"});
  private static final RowType BY_TIMESTAMP =
      RowType.of(
          new LogicalType[] {new BigIntType(), new TimestampType(6)}, new String[] {"id", "ts"});

  @Test
  void aDateSliceAdmitsItsDaysAndRefusesTheDaysAround() {
    RowGuard guard =
        guard(
            BY_DATE,
            new Slice(
                "order_date",
                Slice.ColumnKind.DATE,
                SliceUnit.MONTH,
                LocalDateTime.of(2026, 10, 1, 0, 0),
                LocalDateTime.of(2026, 11, 1, 0, 0)));

    assertOutside(guard, dateRow(LocalDate.of(2026, 9, 30)));
    assertThatCode(() -> guard.check(dateRow(LocalDate.of(2026, 10, 1))))
        .doesNotThrowAnyException();
    assertThatCode(() -> guard.check(dateRow(LocalDate.of(2026, 10, 31))))
        .doesNotThrowAnyException();
    assertOutside(guard, dateRow(LocalDate.of(2026, 11, 1)));
    assertOutside(guard, GenericRowData.of(1L, null));
  }

  @Test
  void aTimestampSliceAdmitsItsMicrosecondsAndRefusesTheOnesAround() {
    LocalDateTime five = LocalDateTime.of(2026, 10, 3, 5, 0);
    RowGuard guard =
        guard(
            BY_TIMESTAMP,
            new Slice("ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, five, five.plusHours(1)));

    assertOutside(guard, tsRow(five.minusNanos(1_000)));
    assertThatCode(() -> guard.check(tsRow(five))).doesNotThrowAnyException();
    assertThatCode(() -> guard.check(tsRow(five.plusHours(1).minusNanos(1_000))))
        .doesNotThrowAnyException();
    assertOutside(guard, tsRow(five.plusHours(1)));
  }

  @Test
  void aTimestampWithZoneSliceOfMillisecondsAdmitsItsInstantsAfterTheTripToATask()
      throws Exception {
    RowType byInstant =
        RowType.of(
            new LogicalType[] {new BigIntType(), new LocalZonedTimestampType(3)},
            new String[] {"id", "at"});
    LocalDateTime five = LocalDateTime.of(2026, 10, 3, 5, 0);
    RowGuard shipped =
        InstantiationUtil.clone(
            guard(
                byInstant,
                new Slice(
                    "at", Slice.ColumnKind.TIMESTAMPTZ, SliceUnit.HOUR, five, five.plusHours(1))));

    assertOutside(shipped, tsRow(five.minusNanos(1_000_000)));
    assertThatCode(() -> shipped.check(tsRow(five))).doesNotThrowAnyException();
    assertThatCode(() -> shipped.check(tsRow(five.plusHours(1).minusNanos(1_000_000))))
        .doesNotThrowAnyException();
    assertOutside(shipped, tsRow(five.plusHours(1)));
  }

  private static RowGuard guard(RowType rowType, Slice slice) {
    return new RowGuard("t.target", Scope.of(slice), rowType, List.of(), List.of());
  }

  private static GenericRowData dateRow(LocalDate day) {
    return GenericRowData.of(1L, (int) day.toEpochDay());
  }

  private static GenericRowData tsRow(LocalDateTime time) {
    return GenericRowData.of(1L, TimestampData.fromLocalDateTime(time));
  }

  private static void assertOutside(RowGuard guard, GenericRowData row) {
    assertThatThrownBy(() -> guard.check(row))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("outside the slice");
  }
}
