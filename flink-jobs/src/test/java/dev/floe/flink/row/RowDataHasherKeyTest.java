package dev.floe.flink.row;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.CanonicalRowEncoder;
import dev.floe.catalog.lineage.ContentHash;
import java.math.BigDecimal;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * A key's hash taken from the row's content-hash encoding equals the hash of the key encoded on its
 * own: the value the committer recomputes from the written files to confirm a duplicate.
 */
class RowDataHasherKeyTest {
  private static final RowType ROW =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new BigIntType(),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DecimalType(10, 2),
            new DecimalType(38, 4),
            new TimestampType(6),
            new DateType()
          },
          new String[] {"id", "name", "amount", "big", "ts", "d"});

  @Test
  void aKeyHashFromTheRowsEncodingEqualsTheKeyHashedAloneInAnyColumnOrder() {
    List<RowData> rows =
        List.of(
            GenericRowData.of(
                1L,
                StringData.fromString("ünïcode"),
                DecimalData.fromBigDecimal(new BigDecimal("-70.00"), 10, 2),
                DecimalData.fromBigDecimal(new BigDecimal("-12345678901234567890123.4567"), 38, 4),
                TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000),
                20_364),
            GenericRowData.of(null, StringData.fromString(""), null, null, null, null),
            GenericRowData.of(
                Long.MIN_VALUE,
                null,
                DecimalData.fromBigDecimal(new BigDecimal("0.01"), 10, 2),
                DecimalData.fromBigDecimal(BigDecimal.ZERO.setScale(4), 38, 4),
                TimestampData.fromEpochMillis(-1L),
                -1));
    List<List<String>> keys =
        List.of(
            List.of("id"),
            List.of("name"),
            List.of("d"),
            List.of("big", "id"),
            List.of("ts", "amount", "name"),
            List.of("id", "name", "amount", "big", "ts", "d"));
    RowDataHasher rowHasher = new RowDataHasher(ROW);
    CanonicalRowEncoder scratch = new CanonicalRowEncoder();
    for (RowData row : rows) {
      rowHasher.add(row, ContentHash.empty());
      for (List<String> key : keys) {
        int[] columns = key.stream().mapToInt(ROW::getFieldIndex).toArray();

        long fromRow = rowHasher.hash64Of(columns, scratch);

        assertThat(fromRow)
            .as("key %s of %s", key, row)
            .isEqualTo(new RowDataHasher(ROW, key).hash128(row)[0]);
      }
    }
  }
}
