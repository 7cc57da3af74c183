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
    WHOLE_NUMBER("a whole number"),
    BOOLEAN("true or false"),
    FORMAT("parquet, avro or orc"),
    PARQUET_CODEC("zstd, gzip, snappy, lz4, lz4_raw, lzo, brotli or uncompressed"),
    AVRO_CODEC("zstd, gzip, snappy or uncompressed"),
    ORC_CODEC("zstd, zlib, snappy, lz4, lzo, brotli or none");

    private final String expected;

    Kind(String expected) {
      this.expected = expected;
    }
  }

  private static final Map<String, Kind> KINDS =
      Map.ofEntries(
          Map.entry(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.PARQUET_PAGE_SIZE_BYTES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.PARQUET_DICT_SIZE_BYTES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.COMMIT_NUM_RETRIES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.COMMIT_MIN_RETRY_WAIT_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.COMMIT_MAX_RETRY_WAIT_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.COMMIT_TOTAL_RETRY_TIME_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MANIFEST_TARGET_SIZE_BYTES, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MANIFEST_MIN_MERGE_COUNT, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MAX_SNAPSHOT_AGE_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.MAX_REF_AGE_MS, Kind.WHOLE_NUMBER),
          Map.entry(TableProperties.SPLIT_SIZE, Kind.WHOLE_NUMBER),
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
          case WHOLE_NUMBER -> isLong(value);
          case BOOLEAN -> lower.equals("true") || lower.equals("false");
          case FORMAT -> Set.of("parquet", "avro", "orc").contains(lower);
          case PARQUET_CODEC ->
              Set.of("zstd", "gzip", "snappy", "lz4", "lz4_raw", "lzo", "brotli", "uncompressed")
                  .contains(lower);
          case AVRO_CODEC -> Set.of("zstd", "gzip", "snappy", "uncompressed").contains(lower);
          case ORC_CODEC ->
              Set.of("zstd", "zlib", "snappy", "lz4", "lzo", "brotli", "none").contains(lower);
        };
    return ok
        ? Optional.empty()
        : Optional.of(
            String.format(
                "expected %s for Iceberg's %s, got '%s' (Iceberg could not write the table)",
                kind.expected, property, value));
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
