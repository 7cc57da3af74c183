package dev.floe.flink.row;

import dev.floe.catalog.lineage.CanonicalRowEncoder;
import dev.floe.catalog.lineage.ContentHash;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Feeds Flink {@link RowData} into the canonical row encoding, with the same logical values as
 * {@code RecordHasher} puts for Iceberg records: the writers' hash must equal a later scan's.
 */
public final class RowDataHasher {
  // What each top-level column is: one switch per column in a loop, not a lambda per column, so
  // that each RowData getter is its own call site (one RowData class there, inlined) and no
  // interface call dispatches between column types per value.
  private static final int BOOLEAN = 0;
  private static final int INT = 1;
  private static final int LONG = 2;
  private static final int FLOAT = 3;
  private static final int DOUBLE = 4;
  private static final int TIME = 5;
  private static final int COMPACT_DECIMAL = 6;
  private static final int DECIMAL = 7;
  private static final int STRING = 8;
  private static final int BINARY = 9;
  private static final int TIMESTAMP = 10;
  private static final int NESTED = 11;

  private final int[] positions;
  private final int[] kinds;

  /** Decimal precision or timestamp precision, per column (0 for other types). */
  private final int[] precisions;

  /** Decimal scale, per column. */
  private final int[] scales;

  /** The encoder of a struct, list or map column, else null. */
  private final ValueEncoder[] nested;

  private final LogicalType[] types;
  private final CanonicalRowEncoder encoder = new CanonicalRowEncoder();

  /** Where each column's bytes end in the last row's encoding. */
  private final int[] ends;

  /** Hashes all columns of rows of {@code rowType}. */
  public RowDataHasher(RowType rowType) {
    this(rowType, rowType.getFieldNames());
  }

  /** Hashes only {@code columns} of rows of {@code rowType} (e.g. a unique key). */
  public RowDataHasher(RowType rowType, List<String> columns) {
    int count = columns.size();
    positions = new int[count];
    kinds = new int[count];
    precisions = new int[count];
    scales = new int[count];
    nested = new ValueEncoder[count];
    types = new LogicalType[count];
    ends = new int[count];
    for (int i = 0; i < count; i++) {
      positions[i] = rowType.getFieldIndex(columns.get(i));
      LogicalType type = rowType.getTypeAt(positions[i]);
      types[i] = type;
      kinds[i] = kindOf(type);
      if (type instanceof DecimalType decimal) {
        precisions[i] = decimal.getPrecision();
        scales[i] = decimal.getScale();
      } else if (type instanceof TimestampType timestamp) {
        precisions[i] = timestamp.getPrecision();
      } else if (type instanceof LocalZonedTimestampType timestamp) {
        precisions[i] = timestamp.getPrecision();
      } else if (kinds[i] == NESTED) {
        nested[i] = nonNullEncoderFor(type);
      }
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

  /**
   * The 64-bit hash ({@link CanonicalRowEncoder#hash64}) of some columns of the row last
   * {@linkplain #add added} or {@linkplain #hash128 hashed}, built from the bytes that row's
   * encoding made: the high half of the 128-bit hash a {@code RowDataHasher} of just those columns
   * gives for that row, without reading or encoding the values again (the unique check's key hash,
   * taken from the content hash's encoding).
   *
   * @param columns indexes into this hasher's columns, in the order to hash them
   * @param scratch an encoder to put the key's bytes into (reset here)
   */
  public long hash64Of(int[] columns, CanonicalRowEncoder scratch) {
    scratch.reset();
    for (int column : columns) {
      scratch.putEncoded(encoder, column == 0 ? 0 : ends[column - 1], ends[column]);
    }
    return scratch.hash64();
  }

  private void encode(RowData row) {
    CanonicalRowEncoder e = encoder;
    e.reset();
    for (int i = 0; i < kinds.length; i++) {
      int pos = positions[i];
      if (row.isNullAt(pos)) {
        e.putNull();
      } else {
        switch (kinds[i]) {
          case BOOLEAN -> e.putBoolean(row.getBoolean(pos));
          case INT -> e.putInt(row.getInt(pos));
          case LONG -> e.putLong(row.getLong(pos));
          case FLOAT -> e.putFloat(row.getFloat(pos));
          case DOUBLE -> e.putDouble(row.getDouble(pos));
          // Flink keeps milliseconds of the day; Iceberg's time is microseconds.
          case TIME -> e.putLong(row.getInt(pos) * 1000L);
          case COMPACT_DECIMAL ->
              e.putDecimal(
                  row.getDecimal(pos, precisions[i], scales[i]).toUnscaledLong(), scales[i]);
          case DECIMAL ->
              e.putDecimal(
                  row.getDecimal(pos, precisions[i], scales[i]).toBigDecimal().unscaledValue(),
                  scales[i]);
          case STRING -> e.putBytes(row.getString(pos).toBytes());
          case BINARY -> e.putBytes(row.getBinary(pos));
          case TIMESTAMP -> e.putLong(micros(row.getTimestamp(pos, precisions[i])));
          default -> nested[i].put(e, nestedValue(types[i], row, pos));
        }
      }
      ends[i] = e.length();
    }
  }

  private static int kindOf(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> BOOLEAN;
      case INTEGER, DATE -> INT;
      case BIGINT -> LONG;
      case FLOAT -> FLOAT;
      case DOUBLE -> DOUBLE;
      case TIME_WITHOUT_TIME_ZONE -> TIME;
      case DECIMAL ->
          DecimalData.isCompact(((DecimalType) type).getPrecision()) ? COMPACT_DECIMAL : DECIMAL;
      case CHAR, VARCHAR -> STRING;
      case BINARY, VARBINARY -> BINARY;
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TIMESTAMP;
      case ROW, ARRAY, MAP -> NESTED;
      default ->
          throw new IllegalArgumentException(
              "Cannot hash a column of type " + type + ": not supported");
    };
  }

  /** Encodes one non-null value of Flink's internal representation (inside a struct, list, map). */
  @FunctionalInterface
  private interface ValueEncoder {
    void put(CanonicalRowEncoder encoder, Object value);
  }

  private static Object nestedValue(LogicalType type, RowData row, int pos) {
    return switch (type.getTypeRoot()) {
      case ROW -> row.getRow(pos, ((RowType) type).getFieldCount());
      case ARRAY -> row.getArray(pos);
      default -> row.getMap(pos);
    };
  }

  /** The same encoding as {@code RecordHasher} for a struct, list or map and what they hold. */
  private static ValueEncoder valueEncoderFor(LogicalType type) {
    ValueEncoder encoder = nonNullEncoderFor(type);
    return (e, v) -> {
      if (v == null) {
        e.putNull();
      } else {
        encoder.put(e, v);
      }
    };
  }

  private static ValueEncoder nonNullEncoderFor(LogicalType type) {
    switch (type.getTypeRoot()) {
      case ROW:
        {
          RowType rowType = (RowType) type;
          int arity = rowType.getFieldCount();
          RowData.FieldGetter[] getters = new RowData.FieldGetter[arity];
          ValueEncoder[] fields = new ValueEncoder[arity];
          for (int i = 0; i < arity; i++) {
            getters[i] = RowData.createFieldGetter(rowType.getTypeAt(i), i);
            fields[i] = valueEncoderFor(rowType.getTypeAt(i));
          }
          return (e, v) -> {
            RowData row = (RowData) v;
            e.putStructStart(arity);
            for (int i = 0; i < arity; i++) {
              fields[i].put(e, getters[i].getFieldOrNull(row));
            }
          };
        }
      case ARRAY:
        {
          LogicalType elementType = ((ArrayType) type).getElementType();
          ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
          ValueEncoder element = valueEncoderFor(elementType);
          return (e, v) -> {
            ArrayData array = (ArrayData) v;
            e.putListStart(array.size());
            for (int i = 0; i < array.size(); i++) {
              element.put(e, getter.getElementOrNull(array, i));
            }
          };
        }
      case MAP:
        {
          MapType mapType = (MapType) type;
          ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(mapType.getKeyType());
          ArrayData.ElementGetter valueGetter =
              ArrayData.createElementGetter(mapType.getValueType());
          ValueEncoder key = valueEncoderFor(mapType.getKeyType());
          ValueEncoder value = valueEncoderFor(mapType.getValueType());
          return (e, v) -> {
            MapData map = (MapData) v;
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            // Entries in any order: their hashes are summed, as rows are.
            ContentHash entries = ContentHash.empty();
            CanonicalRowEncoder entry = new CanonicalRowEncoder();
            for (int i = 0; i < map.size(); i++) {
              entry.reset();
              key.put(entry, keyGetter.getElementOrNull(keys, i));
              value.put(entry, valueGetter.getElementOrNull(values, i));
              entry.addTo(entries);
            }
            e.putMap(entries);
          };
        }
      case BOOLEAN:
        return (e, v) -> e.putBoolean((Boolean) v);
      case INTEGER:
      case DATE:
        return (e, v) -> e.putInt((Integer) v);
      case BIGINT:
        return (e, v) -> e.putLong((Long) v);
      case FLOAT:
        return (e, v) -> e.putFloat((Float) v);
      case DOUBLE:
        return (e, v) -> e.putDouble((Double) v);
      case TIME_WITHOUT_TIME_ZONE:
        return (e, v) -> e.putLong((Integer) v * 1000L);
      case DECIMAL:
        {
          int scale = ((DecimalType) type).getScale();
          return (e, v) -> e.putDecimal(((DecimalData) v).toBigDecimal().unscaledValue(), scale);
        }
      case CHAR:
      case VARCHAR:
        return (e, v) -> e.putBytes(((StringData) v).toBytes());
      case BINARY:
      case VARBINARY:
        return (e, v) -> e.putBytes((byte[]) v);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return (e, v) -> e.putLong(micros((TimestampData) v));
      default:
        throw new IllegalArgumentException(
            "Cannot hash a value of type " + type + ": not supported");
    }
  }

  /** Microseconds since epoch UTC, as Iceberg stores timestamps. */
  public static long micros(TimestampData timestamp) {
    return Math.addExact(
        Math.multiplyExact(timestamp.getMillisecond(), 1000L),
        timestamp.getNanoOfMillisecond() / 1000);
  }
}
