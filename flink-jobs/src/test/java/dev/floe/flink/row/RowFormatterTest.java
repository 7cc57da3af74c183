package dev.floe.flink.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class RowFormatterTest {

  @Test
  void rendersValuesAsPeopleWriteThemNotAsFlinksInternalNumbers() {
    RowType type =
        RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
              new BigIntType(),
              new DecimalType(10, 2),
              new DateType(),
              new TimestampType(6),
              new LocalZonedTimestampType(6),
              new VarCharType(10)
            },
            new String[] {"id", "amount", "d", "ts", "tstz", "s"});
    GenericRowData row =
        GenericRowData.of(
            7L,
            DecimalData.fromBigDecimal(new BigDecimal("70.00"), 10, 2),
            (int) LocalDate.parse("2026-10-04").toEpochDay(),
            TimestampData.fromLocalDateTime(LocalDateTime.parse("2026-10-03T12:00")),
            TimestampData.fromEpochMillis(0),
            null);

    assertThat(new RowFormatter(type).format(row))
        .isEqualTo(
            "{id=7, amount=70.00, d=2026-10-04, ts=2026-10-03T12:00, tstz=1970-01-01T00:00:00Z,"
                + " s=NULL}");
  }

  @Test
  void stringsRenderAsTheirText() {
    RowType type = RowType.of(new VarCharType(10));
    assertThat(new RowFormatter(type).value(GenericRowData.of(StringData.fromString("eu")), 0))
        .isEqualTo("eu");
  }

  @Test
  void aRowInAMessageShowsEachValueOnOneLineAndCutButValueStaysExact() {
    RowType type = RowType.of(new VarCharType(VarCharType.MAX_LENGTH));
    String text = "pro\n" + "x".repeat(500);
    GenericRowData row = GenericRowData.of(StringData.fromString(text));
    RowFormatter formatter = new RowFormatter(type);

    assertThat(formatter.format(row))
        .isEqualTo("{f0=pro\\n" + "x".repeat(96) + "… (504 characters)}");
    assertThat(formatter.columns(row, java.util.List.of("f0"))).doesNotContain("\n").hasSize(122);
    assertThat(formatter.value(row, 0)).isEqualTo(text);
  }
}
