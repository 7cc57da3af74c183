package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.function.Function;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The units partitions cut time into, as Iceberg's transforms compute them. */
class SliceUnitTest {

  @Test
  void theStartOfAPartitionValueIsTheStartOfTheUnitHoldingEveryInstantIcebergPutsThere() {
    Random random = new Random(15);
    long from = micros(LocalDateTime.of(1900, 1, 1, 0, 0));
    long until = micros(LocalDateTime.of(2100, 1, 1, 0, 0));
    for (SliceUnit unit : SliceUnit.values()) {
      Function<Object, Integer> icebergs = timeTransform(unit, Types.TimestampType.withoutZone());
      for (int i = 0; i < 20_000; i++) {
        // Whole milliseconds: never the 0.999999 s past a unit's start that Iceberg 1.11 files
        // under the unit before when it lies before 1970.
        long instant = (from + (long) (random.nextDouble() * (until - from))) / 1000 * 1000;
        LocalDateTime start = unit.startOf(icebergs.apply(instant));
        LocalDateTime time =
            LocalDateTime.ofEpochSecond(Math.floorDiv(instant, 1_000_000L), 0, ZoneOffset.UTC)
                .plusNanos(Math.floorMod(instant, 1_000_000L) * 1000L);
        assertThat(start).as("%s of %s", unit, time).isBeforeOrEqualTo(time);
        assertThat(unit.next(start)).as("%s of %s", unit, time).isAfter(time);
      }
    }
    for (SliceUnit unit : new SliceUnit[] {SliceUnit.DAY, SliceUnit.MONTH, SliceUnit.YEAR}) {
      Function<Object, Integer> icebergs = timeTransform(unit, Types.DateType.get());
      for (int day = -30_000; day <= 30_000; day += 7) {
        LocalDateTime start = unit.startOf(icebergs.apply(day));
        LocalDateTime time = LocalDateTime.of(1970, 1, 1, 0, 0).plusDays(day);
        assertThat(start).as("%s of %s", unit, time).isBeforeOrEqualTo(time);
        assertThat(unit.next(start)).as("%s of %s", unit, time).isAfter(time);
      }
    }
  }

  @Test
  void theEpochStartsUnitZero() {
    for (SliceUnit unit : SliceUnit.values()) {
      assertThat(unit.startOf(0)).isEqualTo(LocalDateTime.of(1970, 1, 1, 0, 0));
    }
    assertThat(SliceUnit.HOUR.startOf(-1)).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 0));
    assertThat(SliceUnit.MONTH.startOf(-13)).isEqualTo(LocalDateTime.of(1968, 12, 1, 0, 0));
  }

  @Test
  void aPartitionFieldCutsTimeWithAnIcebergTimeTransformOrIdentityOnADate() {
    Type date = Types.DateType.get();
    Type timestamp = Types.TimestampType.withZone();

    assertThat(SliceUnit.ofPartitionField("hour", timestamp)).isEqualTo(SliceUnit.HOUR);
    assertThat(SliceUnit.ofPartitionField("day", date)).isEqualTo(SliceUnit.DAY);
    assertThat(SliceUnit.ofPartitionField("month", timestamp)).isEqualTo(SliceUnit.MONTH);
    assertThat(SliceUnit.ofPartitionField("year", date)).isEqualTo(SliceUnit.YEAR);
    assertThat(SliceUnit.ofPartitionField("identity", date)).isEqualTo(SliceUnit.DAY);
    // A time transform cuts time whatever its source type; whether Floe slices it is another rule.
    assertThat(SliceUnit.ofPartitionField("day", Types.TimestampNanoType.withoutZone()))
        .isEqualTo(SliceUnit.DAY);
    assertThat(SliceUnit.ofPartitionField("hour", date)).isNull(); // from an unchecked old spec
    assertThat(SliceUnit.ofPartitionField("identity", timestamp)).isNull();
    assertThat(SliceUnit.ofPartitionField("identity", Types.IntegerType.get())).isNull();
    assertThat(SliceUnit.ofPartitionField("bucket[16]", date)).isNull();
    assertThat(SliceUnit.ofPartitionField("void", date)).isNull();
  }

  private static Function<Object, Integer> timeTransform(SliceUnit unit, Type type) {
    Transform<Object, Integer> transform =
        switch (unit) {
          case HOUR -> Transforms.hour();
          case DAY -> Transforms.day();
          case MONTH -> Transforms.month();
          case YEAR -> Transforms.year();
        };
    return transform.bind(type)::apply;
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
  }
}
