package dev.floe.catalog.k8s;

import dev.floe.catalog.backfill.RangeEnd;
import dev.floe.catalog.backfill.SliceRange;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.slice.SliceUnit;
import java.util.List;

/**
 * Slices read from {@code --slice} values alone, without the target table: rendering needs no
 * catalog access. The label, and so the run key, equals what {@code floe run} computes for any
 * value it accepts: a label spells the bounds with a time only for an hour slice, and only a
 * timestamp column can be cut into hours. Whether the value fits the table's partitions is checked
 * when the job runs (an unfit slice fails the job with exit code 2, before anything is written).
 */
final class SliceValues {
  private SliceValues() {}

  static Slice of(String column, String value) {
    return of("--slice", column, value);
  }

  /** The slice of a value given as {@code what} (a flag), which messages name. */
  static Slice of(String what, String column, String value) {
    SliceResolver.ParsedValue parsed = SliceResolver.parse(what, value, column);
    Slice.ColumnKind kind =
        parsed.unit() == SliceUnit.HOUR ? Slice.ColumnKind.TIMESTAMP : Slice.ColumnKind.DATE;
    return new Slice(
        column, kind, parsed.unit(), parsed.start(), parsed.unit().next(parsed.start()));
  }

  /** The slices of {@code [from, to)}, as {@code floe backfill} lists them. */
  static List<Slice> range(String target, String column, String from, String to) {
    return range(target, column, RangeEnd.flag("--from", from), RangeEnd.flag("--to", to));
  }

  /** The same for ends that messages name by where they came from (a flag or a file's key). */
  static List<Slice> range(String target, String column, RangeEnd from, RangeEnd to) {
    return SliceRange.between(
        target,
        of(from.source(), column, from.value()),
        of(to.source(), column, to.value()),
        from,
        to);
  }
}
