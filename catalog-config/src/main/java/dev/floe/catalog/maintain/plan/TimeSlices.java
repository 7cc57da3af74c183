package dev.floe.catalog.maintain.plan;

import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import java.time.LocalDateTime;
import java.util.Optional;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The time slice a partition lies in: the first field of its spec that cuts time (identity on a
 * date, or hour/day/month/year), turned into the slice {@code floe maintain --compact --slice}
 * takes ({@code column=value}). Computed from the partition tuple alone, without reading manifests,
 * so planning a catalog stays cheap.
 */
public final class TimeSlices {
  private TimeSlices() {}

  /**
   * A partition's slice, or empty when its spec has no time field, the value is null, the slice is
   * not one {@code --slice} can name ({@link SliceResolver#isRunnable}: a year-9999 sentinel), or
   * compaction of the slice could never rewrite the partition ({@link #provablyInside}: a time
   * transform's partition before 1970 or among the first two from it).
   */
  public static Optional<Slice> of(Schema schema, PartitionSpec spec, StructLike partition) {
    for (int pos = 0; pos < spec.fields().size(); pos++) {
      PartitionField field = spec.fields().get(pos);
      Types.NestedField source = schema.findField(field.sourceId());
      if (source == null) {
        continue;
      }
      SliceUnit unit = unit(field.transform().toString(), source.type());
      if (unit == null) {
        continue;
      }
      Object value = partition.get(pos, Object.class);
      if (!(value instanceof Integer ordinal)) {
        return Optional.empty();
      }
      LocalDateTime start = unit.startOf(ordinal);
      Slice.ColumnKind kind =
          source.type().typeId() == Type.TypeID.DATE
              ? Slice.ColumnKind.DATE
              : ((Types.TimestampType) source.type()).shouldAdjustToUTC()
                  ? Slice.ColumnKind.TIMESTAMPTZ
                  : Slice.ColumnKind.TIMESTAMP;
      Slice slice = Slice.of(source.name(), kind, unit, start);
      if (!SliceResolver.isRunnable(slice)) {
        return Optional.empty();
      }
      // Compaction rewrites a partition only when Iceberg's strict projection of the slice proves
      // the partition lies wholly inside it; for time transforms before 1970 and for the first
      // two hours, days, months or years from it (ordinals 0 and 1) the projection is inexact
      // (Iceberg allows for files of its old writers, whose transforms rounded toward zero), so no
      // slice can ever rewrite those partitions. Checked only there: the strict projection costs
      // more than the rest of this method, and a catalog has many files.
      if (ordinal <= 1 && !provablyInside(spec, partition, slice)) {
        return Optional.empty();
      }
      return Optional.of(slice);
    }
    return Optional.empty();
  }

  /**
   * Whether Iceberg can prove every row of {@code partition} (of {@code spec}) lies inside {@code
   * slice}: the test compaction applies before it rewrites a partition's files.
   */
  public static boolean provablyInside(PartitionSpec spec, StructLike partition, Slice slice) {
    return wholeInside(spec, slice).eval(partition);
  }

  /**
   * The partitions of {@code spec} that lie wholly inside {@code slice}, as far as Iceberg can
   * prove it (its strict projection): the only partitions a slice's compaction or position-delete
   * rewrite may replace files in.
   */
  public static Evaluator wholeInside(PartitionSpec spec, Slice slice) {
    return new Evaluator(
        spec.partitionType(), Projections.strict(spec).project(slice.toExpression()));
  }

  /** The slice as {@code --slice} takes it: {@code order_date=2026-10-03}. */
  public static String text(Slice slice) {
    return slice.column() + "=" + slice.value();
  }

  private static SliceUnit unit(String transform, Type type) {
    boolean date = type.typeId() == Type.TypeID.DATE;
    boolean timestamp = type.typeId() == Type.TypeID.TIMESTAMP;
    return date || timestamp ? SliceUnit.ofPartitionField(transform, type) : null;
  }
}
