package dev.floe.catalog.maintain;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.MetricsModes;
import org.apache.iceberg.SortField;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The rule that re-compacts a partition of a table whose maintenance strategy is {@code sort} even
 * when none of its files is small: <b>two or more of its files overlap on the sort key</b>, that is
 * their {@code [lower, upper]} bounds of the first sort column share more than one end value (when
 * sorted by lower bound, a file starts strictly before the previous ones end). Files written by a
 * sorted rewrite touch at most at one boundary value, so a rerun after it finds nothing. Only read
 * from file metadata. The rule needs the first sort field to be an identity (a transform's bounds
 * are not the column's), and exact bounds for every file: otherwise it never fires. Iceberg
 * truncates string and binary bounds (metrics mode {@code truncate(16)} by default), which makes
 * distinct sorted files sharing a 16-character prefix look overlapping; a bound as long as the
 * truncation length may be truncated, so the rule does not fire on it (such a table is re-sorted
 * only by small files), and a rerun after a sorted rewrite stays a no-op.
 */
public final class SortKeyOverlap {
  /**
   * The most input bytes (data file sizes, compressed) one sorted or z-ordered compaction group
   * holds: its rows are sorted in the task's memory, not spilled. A partition with more (or with
   * more estimated heap than {@link GroupHeap#MAX_GROUP_HEAP_BYTES}) is split into groups under
   * both caps, each ordered on its own, and the overlap rule never fires for it (its groups' files
   * would overlap again).
   */
  public static final long MAX_GROUP_BYTES = 256L * 1024 * 1024;

  private SortKeyOverlap() {}

  /** The column whose bounds decide, or empty when the rule does not apply to the table. */
  public static Optional<Types.NestedField> column(Table table) {
    if (table.sortOrder().isUnsorted()) {
      return Optional.empty();
    }
    SortField first = table.sortOrder().fields().get(0);
    if (!first.transform().isIdentity()) {
      return Optional.empty();
    }
    Types.NestedField field = table.schema().findField(first.sourceId());
    return field == null || !field.type().isPrimitiveType() ? Optional.empty() : Optional.of(field);
  }

  /**
   * Whether at least two of {@code files} (one partition's) overlap on {@code column}.
   *
   * @param files data files read with column stats for {@code column}
   */
  public static boolean overlaps(Table table, List<DataFile> files, Types.NestedField column) {
    if (files.size() < 2) {
      return false;
    }
    Type.PrimitiveType type = column.type().asPrimitiveType();
    int truncatedAt = truncateLength(table, column);
    Comparator<Object> order = Comparators.forType(type);
    List<Object[]> ranges = new ArrayList<>();
    for (DataFile file : files) {
      ByteBuffer lower =
          file.lowerBounds() == null ? null : file.lowerBounds().get(column.fieldId());
      ByteBuffer upper =
          file.upperBounds() == null ? null : file.upperBounds().get(column.fieldId());
      if (lower == null || upper == null) {
        return false; // unknown: never fire on what cannot be checked
      }
      if (truncatedAt > 0
          && (length(type, lower) >= truncatedAt || length(type, upper) >= truncatedAt)) {
        return false; // maybe truncated: not the file's real range
      }
      ranges.add(
          new Object[] {
            Conversions.fromByteBuffer(type, lower), Conversions.fromByteBuffer(type, upper)
          });
    }
    ranges.sort((a, b) -> order.compare(a[0], b[0]));
    Object end = ranges.get(0)[1];
    for (int i = 1; i < ranges.size(); i++) {
      if (order.compare(ranges.get(i)[0], end) < 0) {
        return true;
      }
      if (order.compare(ranges.get(i)[1], end) > 0) {
        end = ranges.get(i)[1];
      }
    }
    return false;
  }

  /**
   * The length string and binary bounds of {@code column} may be truncated to, or 0 when its bounds
   * are exact (full metrics, or a type Iceberg does not truncate).
   */
  private static int truncateLength(Table table, Types.NestedField column) {
    Type.TypeID id = column.type().typeId();
    if (id != Type.TypeID.STRING && id != Type.TypeID.BINARY) {
      return 0;
    }
    String name = table.schema().findColumnName(column.fieldId());
    MetricsModes.MetricsMode mode = MetricsConfig.forTable(table).columnMode(name);
    if (mode instanceof MetricsModes.Truncate truncate) {
      return truncate.length();
    }
    return 0;
  }

  /** A string bound's length in code points (what Iceberg truncates), a binary one's in bytes. */
  private static int length(Type.PrimitiveType type, ByteBuffer bound) {
    if (type.typeId() == Type.TypeID.STRING) {
      String value = Conversions.<CharSequence>fromByteBuffer(type, bound).toString();
      return value.codePointCount(0, value.length());
    }
    return bound.remaining();
  }
}
