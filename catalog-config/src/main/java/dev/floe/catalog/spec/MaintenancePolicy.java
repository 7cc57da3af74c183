package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.TableProperties;

/**
 * A table's maintenance policy: when its files, manifests and snapshots need upkeep and how. A
 * table spec's {@code maintenance:} (plus its {@code retention:}) reaches the table as {@code
 * floe.*} properties ({@link #toProperties()}); planners read it back with {@link #of(Map)}, so the
 * table carries its own policy. Unset keys take the defaults declared here (and documented through
 * {@link TableSpecKeys}).
 *
 * @param targetFileSizeBytes compaction aims at this size; files below {@link #smallFileLimit} of
 *     it are small. Null: the table's {@code write.target-file-size-bytes}, else Iceberg's 512 MiB
 * @param minInputFiles a partition is compacted only when it has at least this many small files
 * @param deleteFileThreshold a data file with at least this many delete files needs a rewrite
 * @param deletedRowRatio a partition whose delete files cover at least this share of its rows needs
 *     a rewrite
 * @param strategy how compaction lays rows out
 * @param zorderColumns the columns of {@link Strategy#ZORDER}; empty otherwise
 * @param maxManifests the current snapshot's data manifests above which they are rewritten
 * @param orphanMinAge unreferenced files younger than this are never orphans; null: the default
 * @param retention snapshot retention ({@code retention:} in the spec), if any
 */
public record MaintenancePolicy(
    Long targetFileSizeBytes,
    int minInputFiles,
    int deleteFileThreshold,
    double deletedRowRatio,
    Strategy strategy,
    List<String> zorderColumns,
    int maxManifests,
    Duration orphanMinAge,
    Optional<RetentionSpec> retention) {

  public static final String TARGET_FILE_SIZE = "floe.maintain.target-file-size-bytes";
  public static final String MIN_INPUT_FILES = "floe.maintain.min-input-files";
  public static final String DELETE_FILE_THRESHOLD = "floe.maintain.delete-file-threshold";
  public static final String DELETED_ROW_RATIO = "floe.maintain.deleted-row-ratio";
  public static final String STRATEGY = "floe.maintain.strategy";
  public static final String ZORDER_COLUMNS = "floe.maintain.zorder-columns";
  public static final String MAX_MANIFESTS = "floe.maintain.max-manifests";

  /** The property `floe maintain --orphans` has always read; the spec key now sets it. */
  public static final String ORPHAN_MIN_AGE = "floe.maintain.orphan-min-age";

  public static final int DEFAULT_MIN_INPUT_FILES = 5;

  /**
   * The size below which a data file is small, for a target size: three quarters of it, as Iceberg
   * counts small files ({@code min-file-size-bytes}). A writer closes a file when its estimate
   * reaches the target, and the estimate of the row group still in memory is uncompressed, so the
   * files compaction writes end below the target: counted as small at the target itself, they would
   * be compacted again by every plan, without end.
   */
  public static long smallFileLimit(long targetFileSizeBytes) {
    return targetFileSizeBytes - targetFileSizeBytes / 4;
  }

  /**
   * How many files a compaction writes at most for {@code bytes} of input files: as many as the
   * target size fills, rounded to the nearest (a bin a little over the target gives one file), at
   * least one. Compaction's writer closes no file before it holds that share of the rows, so two or
   * more small files (each below {@link #smallFileLimit}) always give fewer files.
   */
  public static int expectedFiles(long bytes, long targetFileSizeBytes) {
    long target = Math.max(1, targetFileSizeBytes);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round((double) bytes / target)));
  }

  /**
   * The smallest {@code min_input_files}: compacting one file into one file removes none, so a plan
   * item for it would never end.
   */
  public static final int SMALLEST_MIN_INPUT_FILES = 2;

  public static final int DEFAULT_DELETE_FILE_THRESHOLD = 10;
  public static final double DEFAULT_DELETED_ROW_RATIO = 0.3;
  public static final int DEFAULT_MAX_MANIFESTS = 100;
  public static final Duration DEFAULT_ORPHAN_MIN_AGE = Duration.ofDays(3);
  public static final Duration SHORTEST_ORPHAN_MIN_AGE = Duration.ofHours(1);

  /** Iceberg's own default when the table sets no target size. */
  public static final long ICEBERG_TARGET_FILE_SIZE =
      TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT;

  /** How compaction lays out the rows it rewrites. */
  public enum Strategy {
    /** Pack rows into files of the target size, in read order. */
    BINPACK,
    /** Sort by the table's sort order. */
    SORT,
    /** Interleave the named columns (z-order). */
    ZORDER;

    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Strategy> parse(String text) {
      for (Strategy strategy : values()) {
        if (strategy.text().equals(text.trim().toLowerCase(Locale.ROOT))) {
          return Optional.of(strategy);
        }
      }
      return Optional.empty();
    }
  }

  public MaintenancePolicy {
    zorderColumns = List.copyOf(zorderColumns);
    retention = retention == null ? Optional.empty() : retention;
  }

  /** The types {@link #zorderEncodes} accepts, for messages. */
  public static final String ZORDER_TYPES =
      "int, long, float, double, date, time, timestamp, string, binary, fixed, uuid, boolean";

  /**
   * Whether z-order compaction can encode a column of {@code type} (decimals and nested types it
   * cannot): the rule the table spec and compaction share.
   */
  public static boolean zorderEncodes(org.apache.iceberg.types.Type type) {
    return switch (type.typeId()) {
      case BOOLEAN,
          INTEGER,
          LONG,
          DATE,
          TIME,
          TIMESTAMP,
          FLOAT,
          DOUBLE,
          STRING,
          UUID,
          FIXED,
          BINARY ->
          true;
      default -> false;
    };
  }

  /** The defaults, without retention. */
  public static MaintenancePolicy defaults() {
    return new MaintenancePolicy(
        null,
        DEFAULT_MIN_INPUT_FILES,
        DEFAULT_DELETE_FILE_THRESHOLD,
        DEFAULT_DELETED_ROW_RATIO,
        Strategy.BINPACK,
        List.of(),
        DEFAULT_MAX_MANIFESTS,
        null,
        Optional.empty());
  }

  /** The target size in effect: the policy's, else the table's write target, else Iceberg's. */
  public long targetFileSizeBytes(Map<String, String> tableProperties) {
    if (targetFileSizeBytes != null) {
      return targetFileSizeBytes;
    }
    String write = tableProperties.get(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES);
    if (write != null) {
      try {
        return Long.parseLong(write.trim());
      } catch (NumberFormatException e) {
        throw InvalidInputException.of(
            "Cannot read table property %s=%s: not a number",
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, write);
      }
    }
    return ICEBERG_TARGET_FILE_SIZE;
  }

  /** The orphan minimum age in effect. */
  public Duration effectiveOrphanMinAge() {
    return orphanMinAge == null ? DEFAULT_ORPHAN_MIN_AGE : orphanMinAge;
  }

  /**
   * The {@code floe.maintain.*} properties of this policy: every key with a value, so a key set
   * back to its default in the spec also resets the table (retention has its own properties, see
   * {@link FloeTableProperties}).
   */
  public Map<String, String> toProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (targetFileSizeBytes != null) {
      properties.put(TARGET_FILE_SIZE, String.valueOf(targetFileSizeBytes));
    }
    properties.put(MIN_INPUT_FILES, String.valueOf(minInputFiles));
    properties.put(DELETE_FILE_THRESHOLD, String.valueOf(deleteFileThreshold));
    properties.put(DELETED_ROW_RATIO, String.valueOf(deletedRowRatio));
    properties.put(STRATEGY, strategy.text());
    properties.put(ZORDER_COLUMNS, String.join(",", zorderColumns));
    properties.put(MAX_MANIFESTS, String.valueOf(maxManifests));
    if (orphanMinAge != null) {
      properties.put(ORPHAN_MIN_AGE, FloeTableProperties.iso(orphanMinAge));
    }
    return properties;
  }

  /**
   * The policy a table carries in its properties; unset keys take the defaults.
   *
   * @throws InvalidInputException (exit 2) naming the property and its value when one cannot be
   *     read
   */
  public static MaintenancePolicy of(Map<String, String> properties) {
    MaintenancePolicy d = defaults();
    Optional<RetentionSpec> retention;
    try {
      retention = FloeTableProperties.retention(properties);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(e.getMessage());
    }
    String strategyText = properties.get(STRATEGY);
    Strategy strategy =
        strategyText == null
            ? d.strategy
            : Strategy.parse(strategyText)
                .orElseThrow(
                    () ->
                        InvalidInputException.of(
                            "Cannot read table property %s=%s: expected binpack, sort or zorder",
                            STRATEGY, strategyText));
    String zorder = properties.get(ZORDER_COLUMNS);
    List<String> columns =
        zorder == null || zorder.isBlank() || strategy != Strategy.ZORDER
            ? List.of()
            : List.of(zorder.split(",")).stream().map(String::trim).toList();
    return new MaintenancePolicy(
        longProperty(properties, TARGET_FILE_SIZE, null),
        minInputFilesProperty(properties, d.minInputFiles),
        (int) (long) longProperty(properties, DELETE_FILE_THRESHOLD, (long) d.deleteFileThreshold),
        ratioProperty(properties, DELETED_ROW_RATIO, d.deletedRowRatio),
        strategy,
        columns,
        (int) (long) longProperty(properties, MAX_MANIFESTS, (long) d.maxManifests),
        durationProperty(properties, ORPHAN_MIN_AGE),
        retention);
  }

  private static int minInputFilesProperty(Map<String, String> properties, int fallback) {
    int value = (int) (long) longProperty(properties, MIN_INPUT_FILES, (long) fallback);
    if (value < SMALLEST_MIN_INPUT_FILES) {
      throw InvalidInputException.of(
          "Cannot read table property %s=%s: expected at least %d (compacting one file removes"
              + " none)",
          MIN_INPUT_FILES, properties.get(MIN_INPUT_FILES), SMALLEST_MIN_INPUT_FILES);
    }
    return value;
  }

  private static Long longProperty(Map<String, String> properties, String key, Long fallback) {
    String value = properties.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed < 1 || (!key.equals(TARGET_FILE_SIZE) && parsed > Integer.MAX_VALUE)) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "Cannot read table property %s=%s: expected a positive whole number", key, value);
    }
  }

  private static double ratioProperty(Map<String, String> properties, String key, double fallback) {
    String value = properties.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      double parsed = Double.parseDouble(value.trim());
      if (!(parsed > 0 && parsed <= 1)) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw InvalidInputException.of(
          "Cannot read table property %s=%s: expected a ratio in (0, 1], e.g. 0.1", key, value);
    }
  }

  private static Duration durationProperty(Map<String, String> properties, String key) {
    String value = properties.get(key);
    if (value == null) {
      return null;
    }
    try {
      return Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw InvalidInputException.of(
          "Cannot read table property %s=%s: expected an ISO-8601 duration such as P3D",
          key, value);
    }
  }
}
