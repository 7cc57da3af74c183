package dev.floe.flink.merge;

import dev.floe.catalog.slice.Scope;
import java.time.LocalDate;
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
 * The conflict-detection filter of a keyed commit: the partitions of the files it removes and adds,
 * as a row filter, so a concurrent commit elsewhere in the table is no conflict. Identity and
 * temporal partitions become exact filters; a bucket or truncate partition cannot be written as a
 * row filter and widens to the whole scope (safe: more conflicts, never fewer).
 */
final class PartitionFilters {
  /** Beyond this many partitions the filter costs more to evaluate than it saves. */
  private static final int MAX_PARTITIONS = 1000;

  private PartitionFilters() {}

  static Expression touched(Table table, Scope scope, Collection<? extends ContentFile<?>> files) {
    // Expressions have no equality; partitions are told apart by spec and path.
    Map<String, Expression> partitions = new LinkedHashMap<>();
    for (ContentFile<?> file : files) {
      PartitionSpec spec = table.specs().get(file.specId());
      partitions.computeIfAbsent(
          file.specId() + "/" + spec.partitionToPath(file.partition()),
          ignored -> of(spec, file.partition()));
      if (partitions.size() > MAX_PARTITIONS) {
        return scope.toExpression();
      }
    }
    Expression any = Expressions.alwaysFalse();
    for (Expression partition : partitions.values()) {
      any = Expressions.or(any, partition);
    }
    return partitions.isEmpty() ? scope.toExpression() : Expressions.and(scope.toExpression(), any);
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
    if (value == null) {
      return Expressions.isNull(source);
    }
    int ordinal = (Integer) value;
    LocalDate start;
    LocalDate end;
    long hourMicros = 3_600_000_000L;
    switch (transform) {
      case "year" -> {
        start = LocalDate.of(1970 + ordinal, 1, 1);
        end = start.plusYears(1);
      }
      case "month" -> {
        start = LocalDate.of(1970, 1, 1).plusMonths(ordinal);
        end = start.plusMonths(1);
      }
      case "day" -> {
        start = LocalDate.ofEpochDay(ordinal);
        end = start.plusDays(1);
      }
      case "hour" -> {
        return range(source, ordinal * hourMicros, (ordinal + 1) * hourMicros);
      }
      default -> {
        return Expressions.alwaysTrue(); // bucket, truncate, void: no row filter says it exactly
      }
    }
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
