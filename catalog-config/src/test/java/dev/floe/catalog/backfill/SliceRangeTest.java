package dev.floe.catalog.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SliceRangeTest {
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.required(3, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aQuarterOfDaysIsEveryDayFromTheFirstUpToButNotIncludingTheEnd() {
    Table table =
        catalog.create("t.days", EVENTS, PartitionSpec.builderFor(EVENTS).day("ts").build());

    List<Slice> slices = SliceRange.of("t.days", table, "ts", "2026-01-01", "2026-04-01");

    assertThat(slices).hasSize(31 + 28 + 31);
    assertThat(slices.get(0).value()).isEqualTo("2026-01-01");
    assertThat(slices.get(slices.size() - 1).value()).isEqualTo("2026-03-31");
    for (int i = 1; i < slices.size(); i++) {
      assertThat(slices.get(i).start()).isEqualTo(slices.get(i - 1).end()); // no gap, no overlap
    }
    // Each slice is exactly what `floe run --slice` resolves, so run keys and labels match.
    assertThat(slices.get(40).label())
        .isEqualTo(SliceResolver.resolve("t.days", table, "ts", "2026-02-10").label());
  }

  @Test
  void aRangeOverTheDaysTheJulianCalendarSkippedIsRefusedNamingTheFirstSliceThatCannotRun() {
    Table table =
        catalog.create("t.days", EVENTS, PartitionSpec.builderFor(EVENTS).identity("d").build());

    assertThatThrownBy(() -> SliceRange.of("t.days", table, "d", "1582-10-01", "1582-10-20"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot backfill t.days from 1582-10-01 to 1582-10-20: slice 1582-10-04 cannot run: its"
                + " end 1582-10-05 falls in");
    assertThat(SliceRange.of("t.days", table, "d", "1582-09", "1582-12")).hasSize(3);
  }

  @Test
  void theUnitOfFromIsTheUnitOfEverySlice() {
    Table table =
        catalog.create("t.days", EVENTS, PartitionSpec.builderFor(EVENTS).day("ts").build());

    assertThat(SliceRange.of("t.days", table, "ts", "2026-01", "2026-04"))
        .extracting(Slice::value)
        .containsExactly("2026-01", "2026-02", "2026-03");
    // Slices finer than the partitions are refused as `floe run --slice` refuses them.
    assertThatThrownBy(() -> SliceRange.of("t.days", table, "ts", "2026-01-01T22", "2026-01-02T01"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("does not cover whole partitions");
  }

  @Test
  void anEmptyOrMixedRangeIsRefusedWithTheValues() {
    Table table =
        catalog.create("t.dates", EVENTS, PartitionSpec.builderFor(EVENTS).identity("d").build());

    assertThatThrownBy(() -> SliceRange.of("t.dates", table, "d", "2026-02-01", "2026-02-01"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot backfill t.dates from 2026-02-01 to 2026-02-01")
        .hasMessageContaining("exclusive");
    assertThatThrownBy(() -> SliceRange.of("t.dates", table, "d", "2026-02-01", "2026-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("same unit, got a day and a month");
  }

  @Test
  void aSampleOutsideTheRangeIsRefused() {
    Table table =
        catalog.create("t.dates", EVENTS, PartitionSpec.builderFor(EVENTS).identity("d").build());
    List<Slice> slices = SliceRange.of("t.dates", table, "d", "2026-02-01", "2026-02-08");

    assertThat(
            SliceRange.find(slices, SliceResolver.resolve("t.dates", table, "d", "2026-02-03"), "x")
                .value())
        .isEqualTo("2026-02-03");
    assertThatThrownBy(
            () ->
                SliceRange.find(
                    slices, SliceResolver.resolve("t.dates", table, "d", "2026-02-08"), "--sample"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot use --sample: 2026-02-08 is not one of the 7 slices")
        .hasMessageContaining("2026-02-01 to 2026-02-07 (inclusive)");
  }
}
