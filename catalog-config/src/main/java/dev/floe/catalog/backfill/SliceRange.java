package dev.floe.catalog.backfill;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * The slices of a backfill range {@code [from, to)}: {@code from} is inclusive and {@code to}
 * exclusive, like a slice. Both are slice values of the same unit, and each slice is resolved
 * against the target exactly as {@code floe run --slice} would resolve it.
 */
public final class SliceRange {
  /** Guards against a typo such as an hourly range over ten years. */
  public static final int MAX_SLICES = 100_000;

  private SliceRange() {}

  public static List<Slice> of(
      String tableName, Table table, String column, String from, String to) {
    return of(tableName, table, column, RangeEnd.flag("--from", from), RangeEnd.flag("--to", to));
  }

  /** As above, for ends that messages name by where they came from (a flag or a file's key). */
  public static List<Slice> of(
      String tableName, Table table, String column, RangeEnd from, RangeEnd to) {
    // Named by what they are and where they came from: --from/--to or a manifest's from/to.
    Slice first =
        SliceResolver.resolve(
            "range start (" + from.source() + ")", tableName, table, column, from.value());
    Slice end =
        SliceResolver.resolve(
            "range end (" + to.source() + ")", tableName, table, column, to.value());
    return between(tableName, first, end, from, to);
  }

  /**
   * The slices from {@code first} (inclusive) to {@code end} (exclusive), already resolved; {@code
   * from} and {@code to} are the ends the user gave, for messages, which name each end's value and
   * where it came from. {@link #of} resolves them against the table first; a caller without the
   * table (rendering Kubernetes manifests) passes slices read from the values alone.
   */
  public static List<Slice> between(
      String tableName, Slice first, Slice end, RangeEnd from, RangeEnd to) {
    InvalidInputException.check(
        first.unit() == end.unit(),
        "Cannot backfill %s from %s to %s: both ends must be slices of the same unit, got a %s"
            + " and a %s (%s, %s)",
        tableName,
        from.value(),
        to.value(),
        first.unit().name().toLowerCase(),
        end.unit().name().toLowerCase(),
        from.describe(),
        to.describe());
    InvalidInputException.check(
        first.start().isBefore(end.start()),
        "Cannot backfill %s from %s to %s: the range is empty; its end (%s) is exclusive and must"
            + " come after its start (%s)",
        tableName,
        from.value(),
        to.value(),
        to.describe(),
        from.describe());
    List<Slice> slices = new ArrayList<>();
    Slice slice = first;
    while (slice.start().isBefore(end.start())) {
      if (slices.size() == MAX_SLICES) {
        throw InvalidInputException.of(
            "Cannot backfill %s from %s to %s: more than %d slices; split the range",
            tableName, from.value(), to.value(), MAX_SLICES);
      }
      Optional<String> unwritable = SliceResolver.unwritable(slice);
      if (unwritable.isPresent()) {
        throw InvalidInputException.of(
            "Cannot backfill %s from %s to %s: slice %s cannot run: %s",
            tableName, from.value(), to.value(), slice.value(), unwritable.get());
      }
      slices.add(slice);
      slice =
          new Slice(
              slice.column(),
              slice.kind(),
              slice.unit(),
              slice.end(),
              slice.unit().next(slice.end()));
    }
    return slices;
  }

  /**
   * The slice of {@code slices} equal to {@code wanted}; refuses one outside the range.
   *
   * @param what where {@code wanted} came from, for the message: {@code --sample}, or {@code sample
   *     of <file>}
   */
  public static Slice find(List<Slice> slices, Slice wanted, String what) {
    for (Slice slice : slices) {
      if (slice.label().equals(wanted.label())) {
        return slice;
      }
    }
    throw InvalidInputException.of(
        "Cannot use %s: %s is not one of the %d slices of the range, %s to %s (inclusive)",
        what,
        wanted.value(),
        slices.size(),
        slices.get(0).value(),
        slices.get(slices.size() - 1).value());
  }
}
