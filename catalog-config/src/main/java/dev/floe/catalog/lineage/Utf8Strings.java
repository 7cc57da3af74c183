package dev.floe.catalog.lineage;

import dev.floe.catalog.error.CheckFailedException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The one rule for string bytes (DESIGN rule 10: values are exact or refused). Iceberg stores a
 * string as the bytes it was given, but its generic readers (content hashes, compaction, revert)
 * decode them as UTF-8 and put U+FFFD for every malformed sequence: a string that is not UTF-8
 * would hash equal to another one and be rewritten as U+FFFD unnoticed. So the writers refuse such
 * a string ({@link #wellFormed}), and a rewrite through the generic readers looks at the bytes a
 * file stores when a row reads U+FFFD ({@link #columnWithReplacement}, {@link StoredStrings}), the
 * one trace a malformed string another engine wrote leaves after decoding.
 */
public final class Utf8Strings {
  /** The character a UTF-8 decoder puts for bytes it cannot decode. */
  public static final char REPLACEMENT = '\uFFFD';

  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8Strings() {}

  /**
   * Whether {@code length} bytes from {@code offset} are well-formed UTF-8 (no overlong forms, no
   * surrogates, nothing above U+10FFFF, no truncated sequence).
   */
  public static boolean wellFormed(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    while (i < end) {
      // ASCII eight bytes at a time, also between multi-byte characters: a byte-wise loop costs a
      // run about a nanosecond per byte of every string it writes.
      while (i + 8 <= end && ((long) EIGHT_BYTES.get(bytes, i) & HIGH_BITS) == 0) {
        i += 8;
      }
      if (i >= end) {
        return true;
      }
      int b = bytes[i];
      if (b >= 0) {
        i++;
        continue;
      }
      int lead = b & 0xFF;
      if (lead < 0xC2) {
        return false; // a continuation byte, or an overlong two-byte form
      }
      if (lead < 0xE0) {
        if (i + 1 >= end || !continuation(bytes[i + 1])) {
          return false;
        }
        i += 2;
      } else if (lead < 0xF0) {
        if (i + 2 >= end || !continuation(bytes[i + 1]) || !continuation(bytes[i + 2])) {
          return false;
        }
        int second = bytes[i + 1] & 0xFF;
        if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0)) {
          return false; // overlong, or a surrogate
        }
        i += 3;
      } else if (lead < 0xF5) {
        if (i + 3 >= end
            || !continuation(bytes[i + 1])
            || !continuation(bytes[i + 2])
            || !continuation(bytes[i + 3])) {
          return false;
        }
        int second = bytes[i + 1] & 0xFF;
        if ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) {
          return false; // overlong, or above U+10FFFF
        }
        i += 4;
      } else {
        return false;
      }
    }
    return true;
  }

  private static boolean continuation(byte b) {
    return (b & 0xC0) == 0x80;
  }

  /**
   * The refusal of a string that is not UTF-8: exit 3, naming the column, the table and the bytes
   * (the first 32).
   */
  public static CheckFailedException refusal(
      String table, String column, byte[] bytes, int offset, int length) {
    int shown = Math.min(length, 32);
    return new CheckFailedException(
        String.format(
            "Cannot write a string that is not UTF-8 into column %s of %s (bytes %s%s): Iceberg's"
                + " readers would read U+FFFD for it; nothing was committed; keep such bytes in a"
                + " binary column",
            column,
            table,
            HexFormat.of().formatHex(bytes, offset, offset + shown),
            shown < length ? "..." : ""));
  }

  /**
   * The first string column of {@code row}, at any depth, whose value holds U+FFFD, as {@code
   * outer.inner} / {@code list.element} / {@code map.key}; empty when there is none.
   */
  public static Optional<String> columnWithReplacement(StructLike row, Types.StructType type) {
    List<Types.NestedField> fields = type.fields();
    for (int pos = 0; pos < fields.size(); pos++) {
      Types.NestedField field = fields.get(pos);
      if (holdsStrings(field.type())) {
        Optional<String> found = find(field.name(), field.type(), row.get(pos, Object.class));
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> find(String column, Type type, Object value) {
    if (value == null) {
      return Optional.empty();
    }
    switch (type.typeId()) {
      case STRING:
        return value.toString().indexOf(REPLACEMENT) >= 0 ? Optional.of(column) : Optional.empty();
      case STRUCT:
        {
          Optional<String> nested = columnWithReplacement((StructLike) value, type.asStructType());
          return nested.map(inner -> column + "." + inner);
        }
      case LIST:
        for (Object element : (List<?>) value) {
          Optional<String> found =
              find(column + ".element", type.asListType().elementType(), element);
          if (found.isPresent()) {
            return found;
          }
        }
        return Optional.empty();
      case MAP:
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          Optional<String> found =
              find(column + ".key", type.asMapType().keyType(), entry.getKey())
                  .or(
                      () ->
                          find(column + ".value", type.asMapType().valueType(), entry.getValue()));
          if (found.isPresent()) {
            return found;
          }
        }
        return Optional.empty();
      default:
        return Optional.empty();
    }
  }

  /** Whether {@code type} has a string at any depth (else no row of it can read U+FFFD). */
  public static boolean holdsStrings(Type type) {
    return switch (type.typeId()) {
      case STRING -> true;
      case STRUCT -> type.asStructType().fields().stream().anyMatch(f -> holdsStrings(f.type()));
      case LIST -> holdsStrings(type.asListType().elementType());
      case MAP ->
          holdsStrings(type.asMapType().keyType()) || holdsStrings(type.asMapType().valueType());
      default -> false;
    };
  }
}
