package dev.floe.catalog.config;

import java.util.List;

/**
 * The environment variables Floe reads, declared once. Java code reads them through these keys;
 * {@code bin/floe} and {@code bin/log4j2-cli.properties} read {@link #LOG_LEVEL} and {@link
 * #JAVA_OPTS} themselves, because they act before the JVM starts.
 */
public final class EnvironmentVariables {
  /** Prefix of the variables that carry catalog properties. */
  public static final String CATALOG_PREFIX = "FLOE_CATALOG_";

  public static final FloeOption HOME =
      FloeOption.of(
          "FLOE_HOME",
          "path",
          CatalogOptions.DEFAULT_HOME,
          "Where the embedded catalog keeps its SQLite database (`catalog.db`) and its warehouse;"
              + " `--home` wins. Empty or blank counts as unset. Only `tables apply`, `quickstart`,"
              + " `sql`, `run` and `backfill` create a home that holds no catalog yet; other"
              + " commands and every `--dry-run` refuse it, naming the folder (`tables apply"
              + " --dry-run` shows what the first apply would create).");
  public static final FloeOption CATALOG_PROPERTIES =
      FloeOption.of(
          CATALOG_PREFIX + "<KEY>",
          "string",
          null,
          "A catalog property, e.g. `FLOE_CATALOG_S3__SECRET_ACCESS_KEY` for"
              + " `s3.secret-access-key`: lower-cased, `__` becomes `.` and `_` becomes `-`. The"
              + " place for secrets; values never appear in logs. `FLOE_CATALOG_TYPE` sets the"
              + " catalog's type as `catalog.type` in floe.yaml does; `FLOE_CATALOG_NAME` is"
              + " refused (see `catalog.name`).");
  public static final FloeOption LOG_LEVEL =
      FloeOption.of(
          "FLOE_LOG_LEVEL",
          "string",
          "WARN",
          "Log level of `bin/floe`. Everything logged at this level goes to the log file"
              + " `<Floe home>/logs/floe.log`; the terminal shows only Floe's own warnings,"
              + " unless this is set (`INFO` or `DEBUG` show what Flink and Iceberg are doing).");
  public static final FloeOption DEBUG =
      FloeOption.of(
          "FLOE_DEBUG",
          "flag",
          null,
          "When set (e.g. `FLOE_DEBUG=1`; not `0`, `false`, `off`, `no` or empty), an"
              + " unexpected failure prints its stack trace.");
  public static final FloeOption JAVA_OPTS =
      FloeOption.of(
          "FLOE_JAVA_OPTS", "string", null, "Extra JVM options for `bin/floe`, e.g. `-Xmx8g`.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Environment variables",
          "Read by `bin/floe` and the CLI.",
          List.of(HOME, CATALOG_PROPERTIES, LOG_LEVEL, DEBUG, JAVA_OPTS));

  private EnvironmentVariables() {}
}
