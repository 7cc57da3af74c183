package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.LateDataSpec;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A slice is open until exactly slice end + window, sealed from that instant; never without one.
 */
class LateDataWindowTest {
  private static final Slice OCT_3 =
      new Slice(
          "d",
          Slice.ColumnKind.DATE,
          SliceUnit.DAY,
          LocalDate.parse("2026-10-03").atStartOfDay(),
          LocalDate.parse("2026-10-04").atStartOfDay());

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aDaySliceSealsExactlyAtItsEndPlusTheWindow() {
    LateDataWindow window = threeDays(LateDataSpec.AfterWindow.REPORT);
    Instant sealsAt = Instant.parse("2026-10-07T00:00:00Z");

    assertThat(window.sealsAt(OCT_3)).contains(sealsAt);
    assertThat(window.state(OCT_3, sealsAt.minusMillis(1))).isEqualTo(WindowState.OPEN);
    assertThat(window.state(OCT_3, sealsAt)).isEqualTo(WindowState.SEALED);
    assertThat(window.state(OCT_3, sealsAt.plusSeconds(86_400 * 365)))
        .isEqualTo(WindowState.SEALED);
    assertThat(window.state(OCT_3, Instant.parse("2026-10-03T12:00:00Z")))
        .isEqualTo(WindowState.OPEN);
  }

  @Test
  void anHourSliceOnATimestampColumnSealsAtItsEndInUtc() {
    Slice hour =
        new Slice(
            "ts",
            Slice.ColumnKind.TIMESTAMPTZ,
            SliceUnit.HOUR,
            LocalDateTime.parse("2026-10-03T05:00"),
            LocalDateTime.parse("2026-10-03T06:00"));
    LateDataWindow window =
        LateDataWindow.of(
            new LateDataSpec(Duration.ofMinutes(90), LateDataSpec.AfterWindow.REPORT));

    assertThat(window.sealsAt(hour)).contains(Instant.parse("2026-10-03T07:30:00Z"));
    assertThat(window.state(hour, Instant.parse("2026-10-03T07:29:59.999Z")))
        .isEqualTo(WindowState.OPEN);
    assertThat(window.state(hour, Instant.parse("2026-10-03T07:30:00Z")))
        .isEqualTo(WindowState.SEALED);
  }

  @Test
  void withoutAPolicyASliceIsNeverSealedAndAlwaysTakesLateRows() {
    LateDataWindow none = LateDataWindow.none();

    assertThat(none.sealsAt(OCT_3)).isEmpty();
    assertThat(none.state(OCT_3, Instant.parse("2100-01-01T00:00:00Z")))
        .isEqualTo(WindowState.OPEN);
    assertThat(none.acceptsLateRows(WindowState.OPEN)).isTrue();
    assertThat(none.describe()).isEqualTo("none");
  }

  @Test
  void onlyAReopenPolicyTakesLateRowsIntoASealedSlice() {
    assertThat(threeDays(LateDataSpec.AfterWindow.REPORT).acceptsLateRows(WindowState.SEALED))
        .isFalse();
    assertThat(threeDays(LateDataSpec.AfterWindow.REOPEN).acceptsLateRows(WindowState.SEALED))
        .isTrue();
    assertThat(threeDays(LateDataSpec.AfterWindow.REPORT).acceptsLateRows(WindowState.OPEN))
        .isTrue();
  }

  @Test
  void aTableCarriesItsWindowInItsPropertiesAndABadValueIsAnInputError() {
    Schema schema = new Schema(Types.NestedField.required(1, "d", Types.DateType.get()));
    Table table = catalog.create("s.t", schema, PartitionSpec.unpartitioned());

    assertThat(LateDataWindow.of(table, "s.t").policy()).isEmpty();

    table
        .updateProperties()
        .set(FloeTableProperties.LATE_DATA_WINDOW, "P3D")
        .set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen")
        .commit();
    assertThat(LateDataWindow.of(table, "s.t").describe()).isEqualTo("P3D (after_window: reopen)");

    table.updateProperties().set(FloeTableProperties.LATE_DATA_WINDOW, "three days").commit();
    assertThatThrownBy(() -> LateDataWindow.of(table, "s.t"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot read the late-data policy of s.t")
        .hasMessageContaining("floe.late-data.window=three days");
  }

  private static LateDataWindow threeDays(LateDataSpec.AfterWindow after) {
    return LateDataWindow.of(new LateDataSpec(Duration.ofDays(3), after));
  }
}
