package dev.floe.catalog.spec;

import dev.floe.catalog.error.Shown;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableProperties;

/**
 * The values Iceberg parses from table properties: a value it cannot parse would make every write
 * (or every expiry) of the table fail after {@code floe tables apply} accepted it. Every property
 * {@link TableProperties} declares with a number default is checked as Iceberg parses it; the
 * codecs, formats, sizes and three booleans below more strictly. Other properties pass as written.
 */
final class IcebergPropertyValues {
  private enum Kind {
    SIZE("a whole number of bytes above 0"),
    INT_SIZE("a whole number of bytes from 1 to 2147483647"),
    INT("a whole number up to 2147483647"),
    WHOLE_NUMBER("a whole number"),
    NUMBER("a number"),
    BOOLEAN("true or false"),
    FORMAT("parquet, avro or orc"),
    PARQUET_CODEC("zstd, gzip, snappy, lz4_raw or uncompressed"),
    AVRO_CODEC("zstd, gzip, snappy or uncompressed"),
    ORC_CODEC("zstd, zlib, snappy, lz4, lzo or none"),
    METADATA_CODEC("none or gzip");

    private final String expected;

    Kind(String expected) {
      this.expected = expected;
    }
  }

  /** Stricter than the declared default's type says, or not a number or boolean. */
  private static final Map<String, Kind> EXPLICIT =
      Map.ofEntries(
          Map.entry(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.PARQUET_PAGE_SIZE_BYTES, Kind.INT_SIZE),
          Map.entry(TableProperties.PARQUET_DICT_SIZE_BYTES, Kind.INT_SIZE),
          Map.entry(TableProperties.MANIFEST_TARGET_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.SPLIT_SIZE, Kind.SIZE),
          Map.entry(TableProperties.DEFAULT_FILE_FORMAT, Kind.FORMAT),
          Map.entry(TableProperties.DELETE_DEFAULT_FILE_FORMAT, Kind.FORMAT),
          Map.entry(TableProperties.PARQUET_COMPRESSION, Kind.PARQUET_CODEC),
          Map.entry(TableProperties.DELETE_PARQUET_COMPRESSION, Kind.PARQUET_CODEC),
          Map.entry(TableProperties.AVRO_COMPRESSION, Kind.AVRO_CODEC),
          Map.entry(TableProperties.DELETE_AVRO_COMPRESSION, Kind.AVRO_CODEC),
          Map.entry(TableProperties.ORC_COMPRESSION, Kind.ORC_CODEC),
          Map.entry(TableProperties.DELETE_ORC_COMPRESSION, Kind.ORC_CODEC),
          Map.entry(TableProperties.METADATA_COMPRESSION, Kind.METADATA_CODEC),
          // Read as false unless "true": a spec saying "yes" or "on" would get the opposite.
          Map.entry(TableProperties.MANIFEST_MERGE_ENABLED, Kind.BOOLEAN),
          Map.entry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, Kind.BOOLEAN),
          Map.entry(TableProperties.GC_ENABLED, Kind.BOOLEAN));

  private static final Map<String, Kind> KINDS = kinds();

  /**
   * Every property {@link TableProperties} declares as {@code X} with a default {@code X_DEFAULT}
   * of type int, long or double, by that type, then {@link #EXPLICIT}. Not the booleans: Iceberg
   * reads any text as one ({@code Boolean.parseBoolean}, "yes" is false) and never fails on it.
   */
  private static Map<String, Kind> kinds() {
    Map<String, Kind> kinds = new java.util.HashMap<>();
    for (java.lang.reflect.Field field : TableProperties.class.getFields()) {
      if (field.getType() != String.class || field.getName().endsWith("_DEFAULT")) {
        continue;
      }
      try {
        Class<?> type = TableProperties.class.getField(field.getName() + "_DEFAULT").getType();
        Kind kind =
            type == int.class
                ? Kind.INT
                : type == long.class
                    ? Kind.WHOLE_NUMBER
                    : type == double.class ? Kind.NUMBER : null;
        if (kind != null) {
          kinds.put((String) field.get(null), kind);
        }
      } catch (NoSuchFieldException e) {
        // declared without a default: not parsed as a number or boolean by Iceberg
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("Cannot read " + field, e);
      }
    }
    kinds.putAll(EXPLICIT);
    return Map.copyOf(kinds);
  }

  /** The namespaces of the properties Iceberg (and its engines) read. */
  private static final java.util.List<String> ICEBERG_PREFIXES =
      java.util.List.of(
          "write.", "read.", "commit.", "history.", "gc.", "format-version", "schema.", "flink.");

  private IcebergPropertyValues() {}

  /** Whether Iceberg or its engines read {@code property} (and parse numbers and booleans). */
  static boolean isIcebergProperty(String property) {
    return ICEBERG_PREFIXES.stream().anyMatch(property::startsWith);
  }

  /**
   * Why Iceberg would fail on {@code value} for {@code property} (a number, codec or format it
   * cannot parse), or empty; unlike {@link #problem}, a boolean spelled otherwise is no failure.
   */
  static Optional<String> failure(String property, String value) {
    return KINDS.get(property) == Kind.BOOLEAN ? Optional.empty() : problem(property, value);
  }

  /** Why Iceberg could not use {@code value} for {@code property}, or empty when it can. */
  static Optional<String> problem(String property, String value) {
    Kind kind = KINDS.get(property);
    if (kind == null) {
      return Optional.empty();
    }
    String lower = value.toLowerCase(Locale.ROOT);
    boolean ok =
        switch (kind) {
          case SIZE -> isLong(value) && Long.parseLong(value) > 0;
          case INT_SIZE -> isInt(value) && Integer.parseInt(value) > 0;
          case INT -> isInt(value);
          case WHOLE_NUMBER -> isLong(value);
          case NUMBER -> isDouble(value);
          case BOOLEAN -> lower.equals("true") || lower.equals("false");
          case FORMAT -> Set.of("parquet", "avro", "orc").contains(lower);
          case PARQUET_CODEC ->
              Set.of("zstd", "gzip", "snappy", "lz4_raw", "uncompressed").contains(lower);
          case AVRO_CODEC -> Set.of("zstd", "gzip", "snappy", "uncompressed").contains(lower);
          case ORC_CODEC -> Set.of("zstd", "zlib", "snappy", "lz4", "lzo", "none").contains(lower);
          case METADATA_CODEC -> Set.of("none", "gzip").contains(lower);
        };
    if (ok) {
      return Optional.empty();
    }
    // Iceberg reads a boolean spelled otherwise as false; every other kind fails its writes.
    String consequence =
        kind == Kind.BOOLEAN
            ? "Iceberg would read it as false"
            : "Iceberg could not write the table";
    return Optional.of(
        String.format(
            "expected %s for Iceberg's %s, got '%s' (%s)",
            kind.expected, property, Shown.value(value), consequence));
  }

  /** As Iceberg parses an int property: {@code Integer.parseInt}. */
  private static boolean isInt(String value) {
    try {
      Integer.parseInt(value);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * The value a spec's property takes: as the file spells it, except for Iceberg's own properties
   * where Iceberg cannot parse the spelling but can parse YAML's reading ({@code 134_217_728} is
   * 134217728) or YAML reads a boolean ({@code yes} is true: Iceberg would read "yes" as false). So
   * {@code commit.retry.num-retries: 010} stays 010 (Iceberg reads 10; YAML would say 8).
   *
   * @param spelled the value as the file spells it
   * @param read the value as YAML reads it
   */
  static String value(String property, String spelled, String read) {
    if (!isIcebergProperty(property) || spelled.equals(read)) {
      return spelled;
    }
    if (read.equals("true") || read.equals("false")) {
      return read;
    }
    return problem(property, spelled).isEmpty() ? spelled : read;
  }

  /** As Iceberg parses a double property: {@code Double.parseDouble}. */
  private static boolean isDouble(String value) {
    try {
      Double.parseDouble(value);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** As Iceberg parses it: {@code Long.parseLong}, no spaces, units or underscores. */
  private static boolean isLong(String value) {
    try {
      Long.parseLong(value);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
