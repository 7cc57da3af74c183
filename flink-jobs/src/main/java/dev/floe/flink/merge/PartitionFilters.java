package dev.floe.flink.merge;

import dev.floe.catalog.slice.PartitionPaths;
import dev.floe.catalog.slice.SliceUnit;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;

/**
 * The partitions of the files a keyed commit removes and adds, as a row filter: one half of its
 * conflict-detection filter (the other half is the batch's keys, see {@link KeyedCommitter}).
 * Identity and temporal partitions become exact filters; a bucket, truncate or void partition
 * cannot be written as a row filter and widens to every row (safe: more conflicts, never fewer).
 */
final class PartitionFilters {
  /** Beyond this many partitions the filter costs more to evaluate than it saves. */
  private static final int MAX_PARTITIONS = 1000;

  private PartitionFilters() {}

  /**
   * The rows of the partitions {@code files} belong to; {@code alwaysTrue} when they cannot be told
   * apart by a row filter (unpartitioned, bucketed, or too many partitions).
   */
  static Expression touched(Table table, Collection<? extends ContentFile<?>> files) {
    // Expressions have no equality; partitions are told apart by spec and path.
    Map<String, Expression> partitions = new LinkedHashMap<>();
    for (ContentFile<?> file : files) {
      PartitionSpec spec = table.specs().get(file.specId());
      partitions.computeIfAbsent(
          file.specId() + "/" + PartitionPaths.of(spec, file.partition()),
          ignored -> of(spec, file.partition()));
      if (partitions.size() > MAX_PARTITIONS) {
        return Expressions.alwaysTrue();
      }
    }
    Expression any = Expressions.alwaysFalse();
    for (Expression partition : partitions.values()) {
      any = Expressions.or(any, partition);
    }
    return partitions.isEmpty() ? Expressions.alwaysTrue() : any;
  }

  private static Expression of(PartitionSpec spec, StructLike partition) {
    Expression all = Expressions.alwaysTrue();
    for (int i = 0; i < spec.fields().size(); i++) {
      PartitionField field = spec.fields().get(i);
      Object value = partition.get(i, Object.class);
      String source = spec.schema().findColumnName(field.sourceId());
      Type sourceType = spec.schema().findType(field.sourceId());
      all = Expressions.and(all, of(field.transform().toString(), source, sourceType, value));
    }
    return all;
  }

  private static Expression of(String transform, String source, Type sourceType, Object value) {
    if (transform.equals("identity")) {
      if (value == null) {
        return Expressions.isNull(source);
      }
      // Iceberg makes no literal of NaN (and no NaN equals another): a NaN partition is isNaN.
      boolean nan =
          (value instanceof Double d && d.isNaN()) || (value instanceof Float f && f.isNaN());
      return nan ? Expressions.isNaN(source) : Expressions.equal(source, value);
    }
    SliceUnit unit = SliceUnit.ofPartitionField(transform, sourceType);
    if (unit == null) {
      // bucket, truncate, void (or an hour of a date): no row filter says exactly which rows such
      // a partition holds (and a void value is always null), so the filter widens rather than
      // narrows.
      return Expressions.alwaysTrue();
    }
    if (value == null) {
      return Expressions.isNull(source);
    }
    LocalDateTime start = unit.startOf((Integer) value);
    LocalDateTime end = unit.next(start);
    if (sourceType.typeId() == Type.TypeID.DATE) {
      return range(
          source, (int) start.toLocalDate().toEpochDay(), (int) end.toLocalDate().toEpochDay());
    }
    return range(source, micros(start), micros(end));
  }

  private static Expression range(String column, Object from, Object until) {
    return Expressions.and(
        Expressions.greaterThanOrEqual(column, from), Expressions.lessThan(column, until));
  }

  private static long micros(LocalDateTime time) {
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
  }
}
