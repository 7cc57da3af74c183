package dev.floe.catalog.lineage;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The one rule saying which Iceberg types each of Floe's paths carries exactly (DESIGN rule 10:
 * values are exact or refused). Every path that reads or writes values asks here before anything is
 * written, and refuses with one line naming the table, the column and its type.
 *
 * <ul>
 *   <li>{@link Path#ICEBERG} — Iceberg's own generic readers and the content hash ({@code verify},
 *       revert, publish, no-op detection, {@link TableContent}): every primitive type, {@code
 *       timestamp_ns}, and struct, list and map of them. Refused: {@code variant}, {@code unknown},
 *       {@code geometry}, {@code geography} (no canonical encoding yet).
 *   <li>{@link Path#FLINK} — everything that moves values through Flink rows ({@code floe run} in
 *       every mode, audited runs, backfills, late re-runs, {@code floe sql}): as {@code ICEBERG},
 *       minus {@code time} (Flink's runtime TIME holds milliseconds; Iceberg stores microseconds)
 *       and {@code timestamp_ns} (Floe's Flink hashing is to the microsecond), at any depth.
 * </ul>
 */
public final class ExactTypes {

  /** A way values travel. */
  public enum Path {
    /** Iceberg's generic readers, and the content hash computed from them. */
    ICEBERG("Iceberg's readers"),
    /** Flink rows (RowData) between Iceberg's Flink readers and writers. */
    FLINK("Flink");

    private final String text;

    Path(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /**
   * A column a path cannot carry exactly.
   *
   * @param column its name; a nested field as {@code outer.inner}, a list element as {@code
   *     list.element}, a map's key and value as {@code map.key} / {@code map.value}
   * @param type the offending type (for a nested column, the innermost one)
   * @param reason why, in a few words
   */
  public record Inexact(String column, Type type, String reason) {}

  private ExactTypes() {}

  /** The first column of {@code schema} that {@code path} cannot carry exactly, if any. */
  public static Optional<Inexact> firstInexact(Schema schema, Path path) {
    for (Types.NestedField field : schema.columns()) {
      Optional<Inexact> inexact = check(field.name(), field.type(), path);
      if (inexact.isPresent()) {
        return inexact;
      }
    }
    return Optional.empty();
  }

  /** Whether {@code path} carries every value of {@code type} exactly. */
  public static boolean isExact(Type type, Path path) {
    return check("", type, path).isEmpty();
  }

  /**
   * Refuses (exit 2) when {@code path} cannot carry every column of {@code table} exactly.
   *
   * @param action what could not be done, e.g. {@code "run fact_orders_daily"}
   * @param table the table's name, for the message
   * @throws InvalidInputException naming the table, the column and its type
   */
  public static void require(String action, String table, Schema schema, Path path) {
    firstInexact(schema, path)
        .ifPresent(
            inexact -> {
              throw InvalidInputException.of(
                  "Cannot %s: column %s of %s has type %s, which %s: %s",
                  action,
                  inexact.column(),
                  table,
                  inexact.type(),
                  path == Path.FLINK ? "does not pass through Flink exactly" : "is not supported",
                  inexact.reason());
            });
  }

  /**
   * Why {@code path} cannot carry a column of {@code type} exactly, if it cannot.
   *
   * @param column the column's name, the start of {@link Inexact#column()} for a nested field
   */
  public static Optional<Inexact> inexact(String column, Type type, Path path) {
    return check(column, type, path);
  }

  private static Optional<Inexact> check(String column, Type type, Path path) {
    switch (type.typeId()) {
      case STRUCT:
        for (Types.NestedField field : type.asStructType().fields()) {
          Optional<Inexact> inexact = check(join(column, field.name()), field.type(), path);
          if (inexact.isPresent()) {
            return inexact;
          }
        }
        return Optional.empty();
      case LIST:
        return check(join(column, "element"), type.asListType().elementType(), path);
      case MAP:
        {
          Optional<Inexact> key = check(join(column, "key"), type.asMapType().keyType(), path);
          return key.isPresent()
              ? key
              : check(join(column, "value"), type.asMapType().valueType(), path);
        }
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case DATE:
      case TIMESTAMP:
      case STRING:
      case UUID:
      case FIXED:
      case BINARY:
      case DECIMAL:
        return Optional.empty();
      case TIME:
        return path == Path.FLINK
            ? Optional.of(
                new Inexact(
                    column,
                    type,
                    "Flink holds a time of day in milliseconds, Iceberg stores microseconds (read or"
                        + " write this table with another engine)"))
            : Optional.empty();
      case TIMESTAMP_NANO:
        return path == Path.FLINK
            ? Optional.of(
                new Inexact(
                    column, type, "Floe carries timestamps through Flink to the microsecond only"))
            : Optional.empty();
      default:
        return Optional.of(
            new Inexact(column, type, "Floe has no exact encoding for this type yet"));
    }
  }

  private static String join(String outer, String inner) {
    return outer.isEmpty() ? inner : outer + "." + inner;
  }
}
