package dev.floe.flink.job;

import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.slice.Slice;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether one run of a job's query over several consecutive slices gives, slice by slice,
 * exactly what a run of each slice alone gives, so that one Flink job may load them all ({@link
 * SlicesJob}). It holds when the query, bound to the slices' union, plans (in Calcite's logical
 * plan, before any optimization) to a projection of a filter of one table, in which:
 *
 * <ul>
 *   <li>the slice column of the output is a column of that table, passed through unchanged;
 *   <li>the filter is a conjunction holding {@code column >= :slice_start} and {@code column <
 *       :slice_end} (or {@code :slice_start <= column}, {@code :slice_end > column}) on that same
 *       column, and {@code :slice_start} and {@code :slice_end} occur nowhere else (once each in
 *       the query, once each in the plan);
 *   <li>no function whose result depends on when the query runs is called.
 * </ul>
 *
 * Then every output row is computed from one input row, by expressions that do not depend on the
 * slice, and lies in the slice its own column names: the rows of one slice are the same whether
 * that slice is read alone or with its neighbours. Anything else (an aggregate, a join, a subquery,
 * a window, a sort or limit, a slice column computed from others, a parameter used in a value) is
 * left to one job per slice. The decision fails closed: a plan it does not recognise is not split.
 */
public final class SplittableQuery {
  private static final Pattern PROJECT = Pattern.compile("^LogicalProject\\((.*)\\)$");
  private static final Pattern FILTER =
      Pattern.compile("^ {2}LogicalFilter\\(condition=\\[(.*)\\]\\)$");
  private static final Pattern SCAN =
      Pattern.compile("^ {4}LogicalTableScan\\(table=\\[\\[[^\\[\\]]*\\]\\]\\)$");

  /** Output column names the plan prints unambiguously ({@code name=[expression]}). */
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private SplittableQuery() {}

  /**
   * @param spec the job manifest
   * @param inspection the query bound to {@code range}, as planned
   * @param columns the query's output columns, in order
   * @param range the union of the slices: the first one's start to the last one's end
   * @return why one job may not load the slices together, or empty when it may
   */
  public static Optional<String> whyNot(
      JobSpec spec, QueryInspector.Inspection inspection, List<String> columns, Slice range) {
    if (spec.mode() != WriteMode.OVERWRITE) {
      return Optional.of("mode " + spec.mode().text() + " runs one slice per job");
    }
    if (!inspection.nondeterministicCalls().isEmpty()) {
      return Optional.of(
          "the query calls " + String.join(", ", inspection.nondeterministicCalls()));
    }
    for (String parameter : List.of(QueryBinder.SLICE_START, QueryBinder.SLICE_END)) {
      int count = QueryBinder.occurrences(spec.query(), parameter);
      if (count != 1) {
        return Optional.of(
            "the query names :" + parameter + " " + count + " times (splitting needs it once)");
      }
    }
    if (inspection.plan().contains("hints=")) {
      return Optional.of(
          "the query gives a table read options or hints (/*+ OPTIONS(...) */), which may act on"
              + " the whole read (a limit)");
    }
    String[] lines = inspection.plan().strip().split("\n");
    Matcher project = lines.length == 3 ? PROJECT.matcher(lines[0]) : null;
    Matcher filter = lines.length == 3 ? FILTER.matcher(lines[1]) : null;
    if (project == null
        || !project.matches()
        || !filter.matches()
        || !SCAN.matcher(lines[2]).matches()) {
      return Optional.of(
          "the query is not a SELECT of columns and expressions from one table with a WHERE"
              + " clause (an aggregate, join, subquery, window, sort or limit reads several rows"
              + " together)");
    }
    if (lines[0].contains(" OVER (")) {
      return Optional.of("the query computes a window function (OVER), which reads several rows");
    }
    Optional<String> column = passedThrough(project.group(1), columns, spec.sliceColumn());
    if (column.isEmpty()) {
      return Optional.of(
          "the query's " + spec.sliceColumn() + " is not a column of its table passed through");
    }
    String start = planLiteral(range, range.start());
    String end = planLiteral(range, range.end());
    List<String> conjuncts = conjuncts(filter.group(1));
    // Either way round: `d >= :slice_start` plans as >=($3, x), `:slice_start <= d` as <=(x, $3).
    boolean fromStart =
        conjuncts.contains(">=(" + column.get() + ", " + start + ")")
            || conjuncts.contains("<=(" + start + ", " + column.get() + ")");
    boolean beforeEnd =
        conjuncts.contains("<(" + column.get() + ", " + end + ")")
            || conjuncts.contains(">(" + end + ", " + column.get() + ")");
    if (!fromStart || !beforeEnd) {
      return Optional.of(
          "the query's WHERE clause does not hold "
              + spec.sliceColumn()
              + " >= :slice_start AND "
              + spec.sliceColumn()
              + " < :slice_end on the column it loads as "
              + spec.sliceColumn());
    }
    String plan = inspection.plan();
    if (plan.indexOf(start) != plan.lastIndexOf(start)
        || plan.indexOf(end) != plan.lastIndexOf(end)) {
      return Optional.of("the query uses the slice's bounds elsewhere than in its WHERE clause");
    }
    return Optional.empty();
  }

  /**
   * The input reference ({@code $3}) the projection passes through as output column {@code name},
   * if any: read by the column's position, and only when every output column has a plain name, so
   * that a name cannot pose as another item of the printed projection.
   */
  static Optional<String> passedThrough(String projection, List<String> columns, String name) {
    List<String> items = topLevel(projection);
    if (items.size() != columns.size()) {
      return Optional.empty();
    }
    for (int i = 0; i < columns.size(); i++) {
      if (!PLAIN_NAME.matcher(columns.get(i)).matches()
          || !items.get(i).startsWith(columns.get(i) + "=[")) {
        return Optional.empty();
      }
    }
    int position = columns.indexOf(name);
    Matcher m =
        position < 0
            ? null
            : Pattern.compile("^" + Pattern.quote(name) + "=\\[(\\$\\d+)\\]$")
                .matcher(items.get(position));
    return m != null && m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** A condition's top-level conjuncts: the arguments of {@code AND(…)}, else the condition. */
  static List<String> conjuncts(String condition) {
    if (condition.startsWith("AND(") && condition.endsWith(")")) {
      List<String> parts = topLevel(condition.substring(4, condition.length() - 1));
      if (String.join(", ", parts).length() == condition.length() - 5) {
        return parts;
      }
    }
    return List.of(condition);
  }

  /** Splits at the commas outside brackets, parentheses, braces and quotes. */
  private static List<String> topLevel(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int from = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && (c == '(' || c == '[' || c == '{')) {
        depth++;
      } else if (!quoted && (c == ')' || c == ']' || c == '}')) {
        depth--;
      } else if (!quoted && depth == 0 && text.startsWith(", ", i)) {
        parts.add(text.substring(from, i));
        from = i + 2;
        i++;
      }
    }
    parts.add(text.substring(from));
    return parts;
  }

  /**
   * How Calcite's plan prints the literal {@link QueryBinder} binds for a bound of the slice. A
   * timestamptz bound is bound as {@code TO_TIMESTAMP_LTZ(<epoch millis>, 3)}: Calcite types an
   * integer literal INTEGER when its value fits in an int and BIGINT otherwise, and its plan names
   * the type of a BIGINT literal only ({@code TO_TIMESTAMP_LTZ(1774742400000:BIGINT, 3)} but {@code
   * TO_TIMESTAMP_LTZ(-3600000, 3)}), so a bound within some 24.8 days of 1970-01-01 prints without
   * one.
   */
  static String planLiteral(Slice slice, java.time.LocalDateTime bound) {
    return switch (slice.kind()) {
      case DATE -> bound.toLocalDate().toString();
      case TIMESTAMP -> bound.format(TIMESTAMP);
      case TIMESTAMPTZ -> {
        long millis = bound.toInstant(ZoneOffset.UTC).toEpochMilli();
        boolean integer = millis >= Integer.MIN_VALUE && millis <= Integer.MAX_VALUE;
        yield "TO_TIMESTAMP_LTZ(" + millis + (integer ? "" : ":BIGINT") + ", 3)";
      }
    };
  }
}
