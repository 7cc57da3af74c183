package dev.floe.catalog.maintain;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * How much heap a sorted or z-ordered compaction group needs: its rows are held as Iceberg generic
 * records, which take far more memory than their compressed Parquet bytes (about 25 times for a
 * table of longs, a decimal and a date). Estimated per row from the schema (object headers, boxed
 * values, {@code java.time} objects) times the files' record counts, and capped at {@link
 * #MAX_GROUP_HEAP_BYTES} next to {@link SortKeyOverlap#MAX_GROUP_BYTES}.
 */
public final class GroupHeap {
  /**
   * The most estimated heap one sorted or z-ordered group may hold: a third of the 1536 MiB heap
   * {@code floe k8s render-maintenance} gives a maintenance pod, leaving room for a second task
   * slot's group, the writer's buffers and the sort's copy of the list.
   */
  public static final long MAX_GROUP_HEAP_BYTES = 512L * 1024 * 1024;

  private GroupHeap() {}

  /** The estimated heap of {@code files}' rows held as generic records of {@code schema}. */
  public static long of(Schema schema, List<DataFile> files) {
    long rows = files.stream().mapToLong(DataFile::recordCount).sum();
    return rows * bytesPerRow(schema);
  }

  /**
   * The estimated heap of one row: the record and its value array, each value's object, and the
   * list slot that holds the record.
   */
  public static long bytesPerRow(Schema schema) {
    return 8 + struct(schema.asStruct());
  }

  private static long struct(Types.StructType struct) {
    long bytes = 24 + align(16 + 4L * struct.fields().size());
    for (Types.NestedField field : struct.fields()) {
      bytes += value(field.type());
    }
    return bytes;
  }

  private static long value(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> 0; // Boolean.TRUE / FALSE
      case INTEGER, FLOAT, DATE, TIME -> 24; // box, LocalDate, LocalTime
      case LONG, DOUBLE -> 24;
      case TIMESTAMP, TIMESTAMP_NANO -> 96; // OffsetDateTime / LocalDateTime, LocalDate, LocalTime
      case DECIMAL -> 104; // BigDecimal, often with a BigInteger and its int[]
      case STRING -> 24 + 16 + 48; // String, its byte[], an assumed 48 characters
      case UUID -> 32;
      case FIXED -> align(16 + ((Types.FixedType) type).length());
      case BINARY -> 48 + 16 + 48;
      case STRUCT -> struct(type.asStructType());
      default -> 256; // lists, maps, variants: an assumed handful of elements
    };
  }

  private static long align(long bytes) {
    return (bytes + 7) / 8 * 8;
  }
}
