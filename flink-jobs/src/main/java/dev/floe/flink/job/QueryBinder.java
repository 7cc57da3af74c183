package dev.floe.flink.job;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.QueryText;
import dev.floe.catalog.slice.Slice;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Binds {@code :slice_start} and {@code :slice_end} in a manifest query. Flink SQL has no bind
 * parameters, so each one is replaced by a typed literal that Floe renders from the parsed slice
 * ({@code DATE '2026-10-03'}, {@code TIMESTAMP '…'}, {@code TO_TIMESTAMP_LTZ(…)}) — never by text
 * the user supplied. Parameters inside string literals, quoted identifiers and comments are left
 * alone, so a comment cannot smuggle a parameter and a literal cannot be broken out of.
 */
public final class QueryBinder {
  public static final String SLICE_START = QueryText.SLICE_START;
  public static final String SLICE_END = QueryText.SLICE_END;
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private QueryBinder() {}

  /**
   * @param query the manifest's query
   * @param slice the run's slice, or null when the job has none
   * @param source the manifest's path, for messages
   * @return the query with every parameter replaced by a typed literal
   */
  public static String bind(String query, Slice slice, String source) {
    return QueryText.replaceParameters(query, name -> literal(name, slice, source));
  }

  /**
   * How often the query names {@code parameter} (without its colon) outside string literals, quoted
   * identifiers and comments.
   */
  static int occurrences(String query, String parameter) {
    int[] count = {0};
    QueryText.replaceParameters(
        query,
        name -> {
          if (name.equals(parameter)) {
            count[0]++;
          }
          return ":" + name;
        });
    return count[0];
  }

  private static String literal(String name, Slice slice, String source) {
    if (slice == null && (SLICE_START.equals(name) || SLICE_END.equals(name))) {
      throw InvalidInputException.of(
          "Cannot bind :%s in the query of %s: the job has no slice (add slice: {column: ...} to"
              + " the manifest and pass --slice)",
          name, source);
    }
    LocalDateTime value =
        switch (name) {
          case SLICE_START -> slice.start();
          case SLICE_END -> slice.end();
          default ->
              throw InvalidInputException.of(
                  "Cannot bind the query of %s: unknown parameter ':%s' (available: :%s, :%s)",
                  source, name, SLICE_START, SLICE_END);
        };
    return switch (slice.kind()) {
      case DATE -> "DATE '" + value.toLocalDate() + "'";
      case TIMESTAMP -> "TIMESTAMP '" + value.format(TIMESTAMP) + "'";
      case TIMESTAMPTZ ->
          "TO_TIMESTAMP_LTZ(" + value.toInstant(ZoneOffset.UTC).toEpochMilli() + ", 3)";
    };
  }
}
