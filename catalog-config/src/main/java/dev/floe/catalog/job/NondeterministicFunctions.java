package dev.floe.catalog.job;

import java.util.List;
import java.util.Set;

/**
 * Functions whose result depends on when or how often a query runs: the seed's first "common
 * mistake" (a job that scopes itself by the current date). Declared once: the run refuses them in
 * the planned query, and {@code floe lint} looks for them in the manifest's text.
 */
public final class NondeterministicFunctions {
  /**
   * The functions by name. A name ending in {@code ()} counts only when called without arguments
   * ({@code UNIX_TIMESTAMP()} reads the clock, {@code UNIX_TIMESTAMP(s)} parses {@code s}).
   */
  public static final List<String> NAMES =
      List.of(
          "CURRENT_DATE",
          "CURRENT_TIME",
          "CURRENT_TIMESTAMP",
          "CURRENT_ROW_TIMESTAMP",
          "NOW",
          "LOCALTIME",
          "LOCALTIMESTAMP",
          "PROCTIME",
          "PROCTIME_MATERIALIZE",
          "RAND",
          "RAND_INTEGER",
          "UUID",
          "UNIX_TIMESTAMP()");

  /** The ones SQL lets a query write without parentheses, e.g. {@code WHERE d = CURRENT_DATE}. */
  public static final Set<String> WITHOUT_PARENTHESES =
      Set.of("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP");

  /** The ones that return a random value rather than read the clock. */
  public static final Set<String> RANDOM = Set.of("RAND", "RAND_INTEGER", "UUID");

  private NondeterministicFunctions() {}
}
