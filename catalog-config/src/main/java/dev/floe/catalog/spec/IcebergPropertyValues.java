package dev.floe.catalog.spec;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableProperties;

/**
 * The values Iceberg parses from the table properties a spec commonly sets: a value it cannot parse
 * would make every write (or every expiry) of the table fail after {@code floe tables apply}
 * accepted it. Properties not listed here pass as written.
 */
final class IcebergPropertyValues {
  private enum Kind {
    SIZE("a whole number of bytes above 0"),
    INT_SIZE("a whole number of bytes from 1 to 2147483647"),
    INT("a whole number up to 2147483647"),
    WHOLE_NUMBER("a whole number"),
    BOOLEAN("true or false"),
    FORMAT("parquet, avro or orc"),
    PARQUET_CODEC("zstd, gzip, snappy, lz4_raw or uncompressed"),
    AVRO_CODEC("zstd, gzip, snappy or uncompressed"),
    ORC_CODEC("zstd, zlib, snappy, lz4, lzo or none");

    private final String expected;

    Kind(String expected) {
      this.expected = expected;
    }
  }

  private static final Map<String, Kind> KINDS =
      Map.ofEntries(
          Map.entry(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.PARQUET_PAGE_SIZE_BYTES, Kind.INT_SIZE),
          Map.entry(TableProperties.PARQUET_DICT_SIZE_BYTES, Kind.INT_SIZE),
          Map.entry(TableProperties.COMMIT_NUM_RETRIES, Kind.INT),
          Map.entry(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, Kind.INT),
          Map.entry(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, Kind.INT),
          Map.entry(TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, Kind.INT),
          Map.entry(TableProperties.MANIFEST_TARGET_SIZE_BYTES, Kind.SIZE),
          Map.entry(TableProperties.MANIFEST_MIN_MERGE_COUNT, Kind.INT),
          Map.entry(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, Kind.INT),
          Map.entry(TableProperties.MAX_SNAPSHOT_AGE_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Kind.INT),
          Map.entry(TableProperties.MAX_REF_AGE_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.SPLIT_SIZE, Kind.SIZE),
          Map.entry(TableProperties.MANIFEST_MERGE_ENABLED, Kind.BOOLEAN),
          Map.entry(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, Kind.BOOLEAN),
          Map.entry(TableProperties.GC_ENABLED, Kind.BOOLEAN),
          Map.entry(TableProperties.DEFAULT_FILE_FORMAT, Kind.FORMAT),
          Map.entry(TableProperties.PARQUET_COMPRESSION, Kind.PARQUET_CODEC),
          Map.entry(TableProperties.AVRO_COMPRESSION, Kind.AVRO_CODEC),
          Map.entry(TableProperties.ORC_COMPRESSION, Kind.ORC_CODEC));

  /** The namespaces of the properties Iceberg (and its engines) read. */
  private static final java.util.List<String> ICEBERG_PREFIXES =
      java.util.List.of(
          "write.", "read.", "commit.", "history.", "gc.", "format-version", "schema.", "flink.");

  private IcebergPropertyValues() {}

  /** Whether Iceberg or its engines read {@code property} (and parse numbers and booleans). */
  static boolean isIcebergProperty(String property) {
    return ICEBERG_PREFIXES.stream().anyMatch(property::startsWith);
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
          case BOOLEAN -> lower.equals("true") || lower.equals("false");
          case FORMAT -> Set.of("parquet", "avro", "orc").contains(lower);
          case PARQUET_CODEC ->
              Set.of("zstd", "gzip", "snappy", "lz4_raw", "uncompressed").contains(lower);
          case AVRO_CODEC -> Set.of("zstd", "gzip", "snappy", "uncompressed").contains(lower);
          case ORC_CODEC -> Set.of("zstd", "zlib", "snappy", "lz4", "lzo", "none").contains(lower);
        };
    return ok
        ? Optional.empty()
        : Optional.of(
            String.format(
                "expected %s for Iceberg's %s, got '%s' (Iceberg could not write the table)",
                kind.expected, property, value));
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
