package dev.floe.catalog.spec;

import dev.floe.catalog.error.Shown;
import dev.floe.catalog.manifest.NameText;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Which table and column names a table spec may create. Iceberg takes almost any text, but some
 * names break Floe or mislead a reader: a level of a table name left empty ({@code sales..orders}
 * shares the directory of {@code sales.orders}), {@code , = [ ]} (a query reading such a table is
 * refused, as Flink prints its name unquoted), what {@link NameText} refuses in any name (spaces
 * around it, a control or invisible character), a name longer than a file system keeps, and for
 * columns {@code *} (Flink's SQL reads it as every column) and {@code ,} (column lists such as
 * {@code zorder_columns} are stored comma-separated).
 */
final class SpecNames {
  /** The longest name, in UTF-8 bytes, of a table, a namespace level or a column. */
  static final int MAX_BYTES = 200;

  private SpecNames() {}

  /**
   * Why {@code name} ({@code namespace.table}) cannot name a table a spec creates, if it cannot.
   */
  static Optional<String> tableNameProblem(String name) {
    for (String level : name.split("\\.", -1)) {
      if (level.isEmpty()) {
        return Optional.of("a level of the name is empty");
      }
      if (level.matches(".*[,=\\[\\]].*")) {
        // Flink's plan prints a scanned table's name unquoted: no query could read it.
        return Optional.of(
            "'"
                + Shown.value(level)
                + "' holds ',', '=', '[' or ']', which no job's query can read");
      }
      Optional<String> problem = textProblem(level);
      if (problem.isPresent()) {
        return Optional.of("'" + Shown.value(level) + "' " + problem.get());
      }
    }
    return Optional.empty();
  }

  /** Why {@code name} cannot name a column of a spec, if it cannot ('.' is checked apart). */
  static Optional<String> columnNameProblem(String name) {
    if (name.equals("*")) {
      return Optional.of("'*' reads as every column in Flink's SQL");
    }
    if (name.contains(",")) {
      return Optional.of("a ',' breaks the comma-separated column lists Floe stores");
    }
    return textProblem(name);
  }

  private static Optional<String> textProblem(String text) {
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      return Optional.of(
          "is "
              + bytes
              + " bytes long, more than "
              + MAX_BYTES
              + ": a file system keeps a name of at most 255 bytes, and a partition directory"
              + " adds its value to a column's name");
    }
    return NameText.problem(text);
  }
}
