package dev.floe.flink.merge;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
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
  private static final Set<String> TEMPORAL = Set.of("year", "month", "day", "hour");

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
          file.specId() + "/" + spec.partitionToPath(file.partition()),
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
      return value == null ? Expressions.isNull(source) : Expressions.equal(source, value);
    }
    if (!TEMPORAL.contains(transform)) {
      // bucket, truncate, void: no row filter says exactly which rows such a partition holds
      // (and a void value is always null), so the filter widens rather than narrows.
      return Expressions.alwaysTrue();
    }
    if (value == null) {
      return Expressions.isNull(source);
    }
    int ordinal = (Integer) value;
    if (transform.equals("hour")) {
      long hourMicros = 3_600_000_000L;
      return range(source, ordinal * hourMicros, (ordinal + 1) * hourMicros);
    }
    LocalDate start =
        switch (transform) {
          case "year" -> LocalDate.of(1970 + ordinal, 1, 1);
          case "month" -> LocalDate.of(1970, 1, 1).plusMonths(ordinal);
          default -> LocalDate.ofEpochDay(ordinal);
        };
    LocalDate end =
        switch (transform) {
          case "year" -> start.plusYears(1);
          case "month" -> start.plusMonths(1);
          default -> start.plusDays(1);
        };
    if (sourceType.typeId() == Type.TypeID.DATE) {
      return range(source, (int) start.toEpochDay(), (int) end.toEpochDay());
    }
    return range(source, micros(start), micros(end));
  }

  private static Expression range(String column, Object from, Object until) {
    return Expressions.and(
        Expressions.greaterThanOrEqual(column, from), Expressions.lessThan(column, until));
  }

  private static long micros(LocalDate day) {
    return day.atStartOfDay().toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
  }
}
