package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import java.time.LocalDateTime;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Lineage labels read back into the slices that wrote them. */
class SliceLabelsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "d", Types.DateType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withZone()),
          Types.NestedField.required(3, "id", Types.LongType.get()));

  @Test
  void dayHourAndMonthLabelsRoundTrip() {
    for (Slice slice :
        new Slice[] {
          new Slice(
              "d",
              Slice.ColumnKind.DATE,
              SliceUnit.DAY,
              LocalDateTime.parse("2026-10-03T00:00"),
              LocalDateTime.parse("2026-10-04T00:00")),
          new Slice(
              "ts",
              Slice.ColumnKind.TIMESTAMPTZ,
              SliceUnit.HOUR,
              LocalDateTime.parse("2026-10-03T23:00"),
              LocalDateTime.parse("2026-10-04T00:00")),
          new Slice(
              "d",
              Slice.ColumnKind.DATE,
              SliceUnit.MONTH,
              LocalDateTime.parse("2026-02-01T00:00"),
              LocalDateTime.parse("2026-03-01T00:00"))
        }) {
      assertThat(SliceLabels.parse(slice.label(), SCHEMA)).contains(slice);
    }
  }

  @Test
  void theWholeTableAnOddSpanOrAMissingOrNonTemporalColumnIsNoSlice() {
    assertThat(SliceLabels.parse("*", SCHEMA)).isEmpty();
    assertThat(SliceLabels.parse("d=[2026-10-03,2026-10-05)", SCHEMA)).isEmpty();
    assertThat(SliceLabels.parse("gone=[2026-10-03,2026-10-04)", SCHEMA)).isEmpty();
    assertThat(SliceLabels.parse("id=[2026-10-03,2026-10-04)", SCHEMA)).isEmpty();
    assertThat(SliceLabels.parse("d=[yesterday,today)", SCHEMA)).isEmpty();
  }
}
