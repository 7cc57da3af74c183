package dev.floe.catalog.lineage;

import dev.floe.catalog.error.InvalidInputException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/** Adds Iceberg generic {@link Record}s to a {@link ContentHash} with the canonical encoding. */
public final class RecordHasher {
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  private final List<Types.NestedField> columns;
  private final CanonicalRowEncoder encoder = new CanonicalRowEncoder();

  public RecordHasher(Schema schema) {
    this.columns = schema.columns();
    for (Types.NestedField column : columns) {
      ExactTypes.inexact(column.name(), column.type(), ExactTypes.Path.ICEBERG)
          .ifPresent(
              inexact -> {
                throw InvalidInputException.of(
                    "Cannot hash column %s of type %s: %s",
                    inexact.column(), inexact.type(), inexact.reason());
              });
    }
  }

  /**
   * @param table the table the records come from: a column the hash cannot encode is refused (exit
   *     2) with the table, column and type named
   */
  public RecordHasher(Schema schema, String table) {
    ExactTypes.require("hash the rows of " + table, table, schema, ExactTypes.Path.ICEBERG);
    this.columns = schema.columns();
  }

  /**
   * Fails early (exit 2) for a column whose values a rewrite through Flink rows cannot carry and
   * hash exactly ({@link ExactTypes.Path#FLINK}: a {@code time} is held in milliseconds there, so a
   * hash of Flink rows could not see it truncated). Compaction's up-front check; new code should
   * call {@link ExactTypes#require} with the table's name.
   */
  public static void requireHashable(String column, Type type) {
    ExactTypes.inexact(column, type, ExactTypes.Path.FLINK)
        .ifPresent(
            inexact -> {
              throw InvalidInputException.of(
                  "Cannot hash column %s of type %s: %s",
                  inexact.column(), inexact.type(), inexact.reason());
            });
  }

  public void add(Record record, ContentHash hash) {
    encode(record);
    encoder.addTo(hash);
  }

  /**
   * Adds the value of one column to {@code hash}, encoded as in a row: summed over rows, it is an
   * order-independent hash of that column's multiset of values.
   */
  public void addColumn(Record record, int position, ContentHash hash) {
    encoder.reset();
    put(record.get(position), columns.get(position).type());
    encoder.addTo(hash);
  }

  /** The record's 128-bit hash, {@code {high, low}}: the same as the writers' for the same row. */
  public long[] hash128(Record record) {
    encode(record);
    return encoder.hash128();
  }

  /**
   * The first 64 bits of the record's {@linkplain #hash128 128-bit hash}: the same as the writers'
   * unique-check key hash for the same key.
   */
  public long hash64(Record record) {
    encode(record);
    return encoder.hash64();
  }

  /**
   * The record's canonical bytes, the input of {@link #hash128}: two records have equal bytes
   * exactly when the content hash treats them as the same row (whatever Java's {@code equals} says
   * of their values, e.g. a {@code fixed} read as a {@code byte[]}).
   */
  public byte[] canonicalBytes(Record record) {
    encode(record);
    return encoder.toByteArray();
  }

  private void encode(Record record) {
    encoder.reset();
    for (int i = 0; i < columns.size(); i++) {
      put(record.get(i), columns.get(i).type());
    }
  }

  private void put(Object value, Type type) {
    put(encoder, value, type);
  }

  private static void put(CanonicalRowEncoder encoder, Object value, Type type) {
    if (value == null) {
      encoder.putNull();
      return;
    }
    switch (type.typeId()) {
      case BOOLEAN -> encoder.putBoolean((Boolean) value);
      case INTEGER -> encoder.putInt((Integer) value);
      case LONG -> encoder.putLong((Long) value);
      case FLOAT -> encoder.putFloat((Float) value);
      case DOUBLE -> encoder.putDouble((Double) value);
      case DATE -> encoder.putInt((int) ((LocalDate) value).toEpochDay());
      case TIME -> encoder.putLong(((LocalTime) value).toNanoOfDay() / 1000);
      case TIMESTAMP -> encoder.putLong(timestampMicros(value));
      case TIMESTAMP_NANO -> encoder.putLong(timestampNanos(value));
      case STRING -> encoder.putString((CharSequence) value);
      case DECIMAL -> {
        BigDecimal decimal = (BigDecimal) value;
        encoder.putDecimal(decimal.unscaledValue(), decimal.scale());
      }
      case UUID -> encoder.putBytes(uuidBytes((UUID) value));
      case FIXED -> encoder.putBytes((byte[]) value);
      case BINARY -> {
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        encoder.putBytes(bytes);
      }
      case STRUCT -> {
        List<Types.NestedField> fields = type.asStructType().fields();
        StructLike struct = (StructLike) value;
        encoder.putStructStart(fields.size());
        for (int i = 0; i < fields.size(); i++) {
          put(encoder, struct.get(i, Object.class), fields.get(i).type());
        }
      }
      case LIST -> {
        List<?> list = (List<?>) value;
        Type element = type.asListType().elementType();
        encoder.putListStart(list.size());
        for (Object item : list) {
          put(encoder, item, element);
        }
      }
      case MAP -> {
        Map<?, ?> map = (Map<?, ?>) value;
        Types.MapType mapType = type.asMapType();
        // Entries in any order: their hashes are summed, as rows are.
        ContentHash entries = ContentHash.empty();
        CanonicalRowEncoder entry = new CanonicalRowEncoder();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          entry.reset();
          put(entry, e.getKey(), mapType.keyType());
          put(entry, e.getValue(), mapType.valueType());
          entry.addTo(entries);
        }
        encoder.putMap(entries);
      }
      default ->
          throw InvalidInputException.of("Cannot hash a value of type %s: not supported", type);
    }
  }

  private static long timestampNanos(Object value) {
    LocalDateTime local =
        value instanceof OffsetDateTime offset
            ? offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
            : (LocalDateTime) value;
    return ChronoUnit.NANOS.between(EPOCH, local);
  }

  private static long timestampMicros(Object value) {
    if (value instanceof OffsetDateTime offset) {
      return ChronoUnit.MICROS.between(
          EPOCH, offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }
    return ChronoUnit.MICROS.between(EPOCH, (LocalDateTime) value);
  }

  /** A UUID's 16 bytes, most significant first (the order Flink and Parquet store). */
  public static byte[] uuidBytes(UUID uuid) {
    return ByteBuffer.allocate(16)
        .putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits())
        .array();
  }
}
