package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.EmbeddedCatalog;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Slice labels read back from lineage give the slice that wrote them. */
class SliceLabelTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.required(3, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.required(4, "tz", Types.TimestampType.withZone()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table =
        catalog.create(
            "s.t",
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("d").hour("ts").day("tz").build());
  }

  @Test
  void everyResolvedSliceReadsBackFromItsLabel() {
    for (String[] columnAndValue :
        new String[][] {
          {"d", "2026-10-03"},
          {"d", "2026-10"},
          {"d", "2026"},
          {"ts", "2026-10-03T05"},
          {"ts", "2026-10-03"},
          {"tz", "2026-10-03"},
          {"tz", "2026-12"}
        }) {
      Slice slice = SliceResolver.resolve("s.t", table, columnAndValue[0], columnAndValue[1]);

      Scope parsed = SliceLabel.parse("s.t", table, slice.label());

      assertThat(parsed).as(slice.label()).isEqualTo(Scope.of(slice));
      assertThat(parsed.toExpression().toString()).isEqualTo(slice.toExpression().toString());
    }
  }

  @Test
  void theWholeTableLabelAndAMissingLabelMeanTheWholeTable() {
    assertThat(SliceLabel.parse("s.t", table, "*").isWholeTable()).isTrue();
    assertThat(SliceLabel.parse("s.t", table, null).isWholeTable()).isTrue();
  }

  @Test
  void anUnreadableLabelAnUnknownColumnOrAnOddLengthIsRefused() {
    assertThatThrownBy(() -> SliceLabel.parse("s.t", table, "d=2026-10-03"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot read slice label 'd=2026-10-03' of s.t");
    assertThatThrownBy(() -> SliceLabel.parse("s.t", table, "gone=[2026-10-03,2026-10-04)"))
        .hasMessageContaining("'gone=[2026-10-03,2026-10-04)'");
    assertThatThrownBy(() -> SliceLabel.parse("s.t", table, "id=[2026-10-03,2026-10-04)"))
        .hasMessageContaining("on a date or timestamp column");
    assertThatThrownBy(() -> SliceLabel.parse("s.t", table, "d=[2026-10-03,2026-10-05)"))
        .hasMessageContaining("one hour, day, month or year long");
    assertThatThrownBy(() -> SliceLabel.parse("s.t", table, "d=[2026-13-03,2026-10-05)"))
        .hasMessageContaining("2026-13-03");
  }
}
