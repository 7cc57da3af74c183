package dev.floe.catalog.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.backfill.SliceRange;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.testing.EmbeddedCatalog;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rendering reads slices without the table; the label (and so the run key) must still be exactly
 * the one `floe run` resolves against the real table.
 */
class SliceValuesTest {
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.required(3, "tstz", Types.TimestampType.withZone()),
          Types.NestedField.required(4, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @ParameterizedTest
  @CsvSource({
    "identity, d, 2026-10-03",
    "day, d, 2026-10-03",
    "month, d, 2026-10",
    "day, d, 2026",
    "hour, ts, 2026-10-03T05",
    "hour, tstz, 2026-10-03 05:00",
    "hour, tstz, 2026-10-03",
    "day, ts, 2026-12-31",
    "day, tstz, 2026-10",
    "year, ts, 2026",
  })
  void theLabelWithoutTheTableIsTheLabelFloeRunResolves(
      String transform, String column, String value) {
    Table table = catalog.create("t.events", EVENTS, spec(transform, column));

    Slice resolved = SliceResolver.resolve("t.events", table, column, value);
    Slice offline = SliceValues.of(column, value);

    assertThat(offline.label()).isEqualTo(resolved.label());
    assertThat(offline.value()).isEqualTo(resolved.value());
  }

  @Test
  void aRangeWithoutTheTableListsTheSlicesSliceRangeLists() {
    Table table =
        catalog.create("t.events", EVENTS, PartitionSpec.builderFor(EVENTS).hour("tstz").build());

    assertThat(SliceValues.range("t.events", "tstz", "2026-03-29T00", "2026-03-30T03"))
        .extracting(Slice::label)
        .containsExactlyElementsOf(
            SliceRange.of("t.events", table, "tstz", "2026-03-29T00", "2026-03-30T03").stream()
                .map(Slice::label)
                .toList())
        .hasSize(27);
  }

  @Test
  void aValueOfNoKnownFormIsRefusedWithTheValue() {
    assertThatThrownBy(() -> SliceValues.of("d", "2026-13-01"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("2026-13-01");
    assertThatThrownBy(() -> SliceValues.of("d", "yesterday"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'yesterday'");
  }

  private static PartitionSpec spec(String transform, String column) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(EVENTS);
    return switch (transform) {
      case "identity" -> builder.identity(column).build();
      case "hour" -> builder.hour(column).build();
      case "day" -> builder.day(column).build();
      case "month" -> builder.month(column).build();
      case "year" -> builder.year(column).build();
      default -> throw new IllegalArgumentException(transform);
    };
  }
}
