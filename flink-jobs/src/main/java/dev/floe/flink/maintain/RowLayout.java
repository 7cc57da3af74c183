package dev.floe.flink.maintain;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.StoredRows;
import dev.floe.catalog.maintain.SortKeyOverlap;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.spec.MaintenancePolicy.Strategy;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrderComparators;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.UUIDUtil;
import org.apache.iceberg.util.ZOrderByteUtils;

/**
 * How compaction orders the rows of a group before writing them, from the table's maintenance
 * policy ({@code floe.maintain.strategy}): {@code binpack} keeps read order (rows stream through);
 * {@code sort} orders them by the table's Iceberg {@code SortOrder} (Iceberg's own {@link
 * SortOrderComparators}, transforms and null order included); {@code zorder} by a z-value: each
 * named column turned into 8 order-preserving bytes with Iceberg's {@link ZOrderByteUtils}
 * (strings, binary, fixed and uuid by their first 8 bytes; null as all zero bytes, so nulls come
 * first) and the bits interleaved, compared as unsigned bytes. Sorting and z-ordering hold a
 * group's rows in memory (see {@link #MAX_GROUP_BYTES} and {@link
 * dev.floe.catalog.maintain.GroupHeap#MAX_GROUP_HEAP_BYTES}).
 */
public record RowLayout(Strategy strategy, List<String> zorderColumns) implements Serializable {

  /** The most input bytes of one sorted or z-ordered group; see {@link SortKeyOverlap}. */
  public static final long MAX_GROUP_BYTES = SortKeyOverlap.MAX_GROUP_BYTES;

  /** Bytes each z-order column contributes, as Iceberg's Spark z-order does by default. */
  static final int ZORDER_BYTES = ZOrderByteUtils.PRIMITIVE_BUFFER_SIZE;

  public static final RowLayout BINPACK = new RowLayout(Strategy.BINPACK, List.of());

  public RowLayout {
    zorderColumns = List.copyOf(zorderColumns);
  }

  /**
   * The table's layout, from its maintenance policy.
   *
   * @throws InvalidInputException (exit 2) for {@code sort} on a table without a sort order, or
   *     {@code zorder} on a column that does not exist or whose type z-order cannot encode
   */
  public static RowLayout of(Table table, String name) {
    MaintenancePolicy policy = MaintenancePolicy.of(table.properties());
    switch (policy.strategy()) {
      case SORT -> {
        InvalidInputException.check(
            !table.sortOrder().isUnsorted(),
            "Cannot compact %s with strategy sort: the table has no sort order (set one, e.g."
                + " Spark's ALTER TABLE %s WRITE ORDERED BY ..., or use strategy binpack or"
                + " zorder)",
            name,
            name);
        return new RowLayout(Strategy.SORT, List.of());
      }
      case ZORDER -> {
        for (String column : policy.zorderColumns()) {
          Types.NestedField field = table.schema().findField(column);
          InvalidInputException.check(
              field != null,
              "Cannot compact %s with strategy zorder: column %s does not exist",
              name,
              column);
          InvalidInputException.check(
              MaintenancePolicy.zorderEncodes(field.type()),
              "Cannot compact %s with strategy zorder: column %s has type %s, which z-order cannot"
                  + " encode (it encodes %s)",
              name,
              column,
              field.type(),
              MaintenancePolicy.ZORDER_TYPES);
          InvalidInputException.check(
              !path(table.schema().asStruct(), field.fieldId()).isEmpty(),
              "Cannot compact %s with strategy zorder: column %s is inside a list or map (z-order"
                  + " reads top-level columns and fields of structs)",
              name,
              column);
        }
        return new RowLayout(Strategy.ZORDER, policy.zorderColumns());
      }
      default -> {
        return BINPACK;
      }
    }
  }

  /** Whether rows are reordered (held in memory) rather than streamed in read order. */
  public boolean reorders() {
    return strategy != Strategy.BINPACK;
  }

  /**
   * The rows of {@link StoredRows#schema(Table)} in this layout's order (the list itself for
   * binpack). Z-values are computed once per row.
   */
  List<Record> order(Table table, List<Record> rows) {
    Schema schema = StoredRows.schema(table);
    switch (strategy) {
      case SORT -> {
        // Generic records hold LocalDate, LocalDateTime, byte[]...; the comparator (and the
        // transforms it applies) reads Iceberg's internal values: wrap each side of a comparison.
        Comparator<StructLike> order = SortOrderComparators.forSchema(schema, table.sortOrder());
        InternalRecordWrapper left = new InternalRecordWrapper(schema.asStruct());
        InternalRecordWrapper right = new InternalRecordWrapper(schema.asStruct());
        rows.sort((a, b) -> order.compare(left.wrap(a), right.wrap(b)));
        return rows;
      }
      case ZORDER -> {
        int[][] positions = paths(schema, zorderColumns);
        Type[] types = types(schema, zorderColumns);
        List<Map.Entry<byte[], Record>> keyed = new ArrayList<>(rows.size());
        for (Record row : rows) {
          keyed.add(Map.entry(zValue(row, positions, types), row));
        }
        keyed.sort((a, b) -> Arrays.compareUnsigned(a.getKey(), b.getKey()));
        return keyed.stream().map(Map.Entry::getValue).toList();
      }
      default -> {
        return rows;
      }
    }
  }

  /**
   * The z-value of a row: the z-order columns' ordered bytes, interleaved. Public so that tests and
   * the benchmark check the order the same way.
   */
  public static byte[] zValue(Schema schema, List<String> columns, StructLike row) {
    return zValue(row, paths(schema, columns), types(schema, columns));
  }

  private static Type[] types(Schema schema, List<String> columns) {
    return columns.stream().map(c -> schema.findField(c).type()).toArray(Type[]::new);
  }

  /**
   * For each column, the positions that lead to it from the row: one for a top-level column, one
   * more per struct it is nested in ("s.a").
   */
  private static int[][] paths(Schema schema, List<String> columns) {
    int[][] paths = new int[columns.size()][];
    for (int i = 0; i < paths.length; i++) {
      int id = schema.findField(columns.get(i)).fieldId();
      paths[i] = path(schema.asStruct(), id).stream().mapToInt(Integer::intValue).toArray();
    }
    return paths;
  }

  private static List<Integer> path(Types.StructType struct, int id) {
    List<Types.NestedField> fields = struct.fields();
    for (int p = 0; p < fields.size(); p++) {
      Types.NestedField field = fields.get(p);
      if (field.fieldId() == id) {
        return List.of(p);
      }
      if (field.type().isStructType()) {
        List<Integer> inner = path(field.type().asStructType(), id);
        if (!inner.isEmpty()) {
          List<Integer> path = new ArrayList<>(List.of(p));
          path.addAll(inner);
          return path;
        }
      }
    }
    return List.of();
  }

  /** The value at {@code path}, or null when it or a struct on the way is null. */
  private static Object valueAt(StructLike row, int[] path) {
    Object value = row;
    for (int position : path) {
      if (value == null) {
        return null;
      }
      value = ((StructLike) value).get(position, Object.class);
    }
    return value;
  }

  private static byte[] zValue(StructLike row, int[][] paths, Type[] types) {
    byte[][] columns = new byte[paths.length][];
    for (int i = 0; i < paths.length; i++) {
      columns[i] = orderedBytes(valueAt(row, paths[i]), types[i]);
    }
    int size = ZORDER_BYTES * paths.length;
    return ZOrderByteUtils.interleaveBits(columns, size, ByteBuffer.allocate(size)).clone();
  }

  private static byte[] orderedBytes(Object value, Type type) {
    ByteBuffer buffer = ByteBuffer.allocate(ZORDER_BYTES);
    if (value == null) {
      return buffer.array(); // all zero bytes: nulls first
    }
    ByteBuffer bytes =
        switch (type.typeId()) {
          case BOOLEAN -> ZOrderByteUtils.longToOrderedBytes((Boolean) value ? 1 : 0, buffer);
          case INTEGER -> ZOrderByteUtils.intToOrderedBytes((Integer) value, buffer);
          case DATE -> ZOrderByteUtils.longToOrderedBytes(days(value), buffer);
          case LONG -> ZOrderByteUtils.longToOrderedBytes((Long) value, buffer);
          case TIME -> ZOrderByteUtils.longToOrderedBytes(micros(value), buffer);
          case TIMESTAMP -> ZOrderByteUtils.longToOrderedBytes(micros(value), buffer);
          case FLOAT -> ZOrderByteUtils.floatToOrderedBytes((Float) value, buffer);
          case DOUBLE -> ZOrderByteUtils.doubleToOrderedBytes((Double) value, buffer);
          case STRING ->
              ZOrderByteUtils.stringToOrderedBytes(
                  value.toString(), ZORDER_BYTES, buffer, encoder());
          case UUID ->
              ZOrderByteUtils.byteTruncateOrFill(
                  UUIDUtil.convert((UUID) value), ZORDER_BYTES, buffer);
          case FIXED -> ZOrderByteUtils.byteTruncateOrFill((byte[]) value, ZORDER_BYTES, buffer);
          case BINARY ->
              ZOrderByteUtils.byteTruncateOrFill(bytesOf((ByteBuffer) value), ZORDER_BYTES, buffer);
          default -> throw new IllegalStateException("Cannot z-order a value of type " + type);
        };
    return bytes.array();
  }

  private static long days(Object value) {
    return value instanceof java.time.LocalDate date ? date.toEpochDay() : (Integer) value;
  }

  /** Generic records hold times as LocalTime and timestamps as LocalDateTime/OffsetDateTime. */
  private static long micros(Object value) {
    if (value instanceof java.time.LocalTime time) {
      return time.toNanoOfDay() / 1000;
    }
    if (value instanceof java.time.LocalDateTime ts) {
      return org.apache.iceberg.util.DateTimeUtil.microsFromTimestamp(ts);
    }
    if (value instanceof java.time.OffsetDateTime ts) {
      return org.apache.iceberg.util.DateTimeUtil.microsFromTimestamptz(ts);
    }
    return (Long) value;
  }

  private static byte[] bytesOf(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static CharsetEncoder encoder() {
    return StandardCharsets.UTF_8.newEncoder();
  }
}
