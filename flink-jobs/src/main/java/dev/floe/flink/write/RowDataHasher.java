package dev.floe.flink.write;

import dev.floe.catalog.lineage.CanonicalRowEncoder;
import dev.floe.catalog.lineage.ContentHash;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Feeds Flink {@link RowData} into the canonical row encoding, with the same logical values as
 * {@code RecordHasher} puts for Iceberg records: the writers' hash must equal a later scan's.
 */
public final class RowDataHasher {
  private final ColumnEncoder[] encoders;
  private final CanonicalRowEncoder encoder = new CanonicalRowEncoder();

  @FunctionalInterface
  private interface ColumnEncoder {
    void put(CanonicalRowEncoder encoder, RowData row, int pos);
  }

  /** Hashes all columns of rows of {@code rowType}. */
  public RowDataHasher(RowType rowType) {
    this(rowType, rowType.getFieldNames());
  }

  /** Hashes only {@code columns} of rows of {@code rowType} (e.g. a unique key). */
  public RowDataHasher(RowType rowType, List<String> columns) {
    encoders = new ColumnEncoder[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      int pos = rowType.getFieldIndex(columns.get(i));
      ColumnEncoder valueEncoder = encoderFor(rowType.getTypeAt(pos));
      encoders[i] =
          (enc, row, ignored) -> {
            if (row.isNullAt(pos)) {
              enc.putNull();
            } else {
              valueEncoder.put(enc, row, pos);
            }
          };
    }
  }

  /** Adds the row to {@code hash}. */
  public void add(RowData row, ContentHash hash) {
    encode(row);
    encoder.addTo(hash);
  }

  /** The row's 128-bit hash, {@code {high, low}}. */
  public long[] hash128(RowData row) {
    encode(row);
    return encoder.hash128();
  }

  private void encode(RowData row) {
    encoder.reset();
    for (ColumnEncoder columnEncoder : encoders) {
      columnEncoder.put(encoder, row, -1);
    }
  }

  private static ColumnEncoder encoderFor(LogicalType type) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (e, r, p) -> e.putBoolean(r.getBoolean(p));
      case INTEGER:
      case DATE:
        return (e, r, p) -> e.putInt(r.getInt(p));
      case BIGINT:
        return (e, r, p) -> e.putLong(r.getLong(p));
      case FLOAT:
        return (e, r, p) -> e.putFloat(r.getFloat(p));
      case DOUBLE:
        return (e, r, p) -> e.putDouble(r.getDouble(p));
      case TIME_WITHOUT_TIME_ZONE:
        // Flink keeps milliseconds of the day; Iceberg's time is microseconds.
        return (e, r, p) -> e.putLong(r.getInt(p) * 1000L);
      case DECIMAL:
        {
          int precision = ((DecimalType) type).getPrecision();
          int scale = ((DecimalType) type).getScale();
          if (DecimalData.isCompact(precision)) {
            return (e, r, p) ->
                e.putDecimal(r.getDecimal(p, precision, scale).toUnscaledLong(), scale);
          }
          return (e, r, p) ->
              e.putDecimal(r.getDecimal(p, precision, scale).toBigDecimal().unscaledValue(), scale);
        }
      case CHAR:
      case VARCHAR:
        return (e, r, p) -> e.putBytes(r.getString(p).toBytes());
      case BINARY:
      case VARBINARY:
        return (e, r, p) -> e.putBytes(r.getBinary(p));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        {
          int precision = ((TimestampType) type).getPrecision();
          return (e, r, p) -> e.putLong(micros(r.getTimestamp(p, precision)));
        }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        {
          int precision = ((LocalZonedTimestampType) type).getPrecision();
          return (e, r, p) -> e.putLong(micros(r.getTimestamp(p, precision)));
        }
      default:
        throw new IllegalArgumentException(
            "Cannot hash a column of type " + type + ": not supported");
    }
  }

  /** Microseconds since epoch UTC, as Iceberg stores timestamps. */
  public static long micros(TimestampData timestamp) {
    return Math.addExact(
        Math.multiplyExact(timestamp.getMillisecond(), 1000L),
        timestamp.getNanoOfMillisecond() / 1000);
  }
}
