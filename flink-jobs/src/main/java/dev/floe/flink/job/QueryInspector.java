package dev.floe.flink.job;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.NondeterministicFunctions;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.operations.QueryOperation;

/**
 * Reads what a query really does from its planned form, not its text: the planner has already
 * dropped comments, resolved functions (also inside views) and quoted every literal, so a comment
 * or a string that mentions {@code NOW()} cannot fool it, and a call hidden in a view cannot hide.
 */
public final class QueryInspector {
  /**
   * Functions whose result depends on when or how often the query runs: the seed's first "common
   * mistake" (a job that scopes itself by the current date). Declared once, in catalog-config, so
   * {@code floe lint} warns about the same list.
   */
  public static final List<String> NONDETERMINISTIC = NondeterministicFunctions.NAMES;

  // Literals in the plan look like 'text', _UTF-16LE'text', X'00' (binary) or U&'...' (with ''
  // as an escaped quote). A quote inside a name (an alias `it's`, printed as it's=[...]) is not
  // one: a literal starts after no letter and ends before no letter or '='; a name's quote it still
  // mistakes is caught in inspect(String). Possessive, and a run of characters per repetition:
  // Java's regex engine recurses once per repetition of a group, so a repetition per character
  // overflowed the stack on a literal of some 10,000 characters.
  private static final Pattern LITERAL =
      Pattern.compile("(?<![\\w$'])(_[A-Za-z0-9-]+|X|U&)?'(?:[^']++|'')*+'(?![=\\w])");
  private static final Pattern CALL = Pattern.compile("\\b([A-Z_][A-Z0-9_]*)\\(");
  private static final Pattern SCAN = Pattern.compile("table=\\[\\[([^\\]]*)\\]");
  // A FLOAT constant as Calcite prints it: 16777.217:FLOAT, -1.2345678E10:FLOAT.
  private static final Pattern FLOAT_CONSTANT =
      Pattern.compile("(?<![\\w.$])(-?[0-9]+(?:\\.[0-9]+)?(?:E-?[0-9]+)?):FLOAT\\b");

  /**
   * @param nondeterministicCalls the nondeterministic functions the query calls, as named above
   * @param scannedTables every table the query reads, as {@code catalog.namespace.table}
   * @param floatConstants the FLOAT constants of the plan as written there (outside text literals),
   *     e.g. {@code 16777.217}
   * @param plan the planned query (Calcite's logical plan), for messages and debugging
   */
  public record Inspection(
      Set<String> nondeterministicCalls,
      Set<String> scannedTables,
      Set<String> floatConstants,
      String plan) {}

  private QueryInspector() {}

  public static Inspection inspect(Table query) {
    return inspect(logicalPlan(query));
  }

  /** The same for a parsed statement's query (e.g. one of {@code floe sql}). */
  public static Inspection inspect(QueryOperation query) {
    String plan = calcitePlan(query);
    return inspect(plan == null ? query.asSummaryString() : plan);
  }

  private static Inspection inspect(String plan) {
    String withoutLiterals = LITERAL.matcher(plan).replaceAll("''");
    // A quote left once the literals are gone belongs to a name (an alias `rock 'n roll`): then
    // what looked like a literal may have run from that quote to a real one and swallowed a call
    // or a scan. Fail closed: read the plan as it is too, and take what either reading finds.
    boolean quoteInAName = LITERAL.matcher(plan).replaceAll("").indexOf('\'') >= 0;
    List<String> readings =
        quoteInAName ? List.of(withoutLiterals, plan) : List.of(withoutLiterals);
    Set<String> calls = new LinkedHashSet<>();
    Set<String> tables = new LinkedHashSet<>();
    Set<String> floats = new LinkedHashSet<>();
    for (int reading = 0; reading < readings.size(); reading++) {
      String text = readings.get(reading);
      // Only the reading without literals (the first) refuses a name: the raw one may find
      // "table=[[" in a literal, and what it finds there is no table.
      boolean strict = reading == 0;
      Matcher constant = FLOAT_CONSTANT.matcher(text);
      while (constant.find()) {
        floats.add(constant.group(1));
      }
      Matcher call = CALL.matcher(text);
      while (call.find()) {
        String name = call.group(1);
        boolean noArguments = text.startsWith(name + "()", call.start());
        if (NONDETERMINISTIC.contains(name)) {
          calls.add(name);
        } else if (noArguments && NONDETERMINISTIC.contains(name + "()")) {
          calls.add(name + "()");
        }
      }
      Matcher scan = SCAN.matcher(text);
      while (scan.find()) {
        scannedTable(text, scan, strict).ifPresent(tables::add);
      }
    }
    return new Inspection(calls, tables, floats, plan);
  }

  /**
   * The {@code catalog.database.table} of one scan, printed as {@code table=[[catalog, database,
   * table]]} in the logical plan (Calcite's, or the first section of {@code explain()}: no pushdown
   * parts). The parts are not quoted: a name holding {@code ", "}, {@code =}, {@code [} or {@code
   * ]} cannot be told from the parts around it (a table {@code orders,v2} or {@code src,
   * project=[x} would be read as another one), and a comma would break the lineage's list of
   * sources, so such a name is refused rather than guessed.
   *
   * @param strict whether an unclear scan is refused; otherwise it is skipped
   * @throws InvalidInputException naming the scan as printed, when {@code strict}
   */
  private static Optional<String> scannedTable(String text, Matcher scan, boolean strict) {
    String[] parts = scan.group(1).split(", ", -1);
    boolean clear =
        parts.length == 3
            && java.util.Arrays.stream(parts)
                .noneMatch(part -> part.isEmpty() || part.matches(".*[,=\\[\\]].*"))
            // The first ']' must close the name list: "]]" and no third one.
            && text.startsWith("]", scan.end())
            && !text.startsWith("]", scan.end() + 1);
    if (clear) {
      return Optional.of(String.join(".", parts));
    }
    if (!strict) {
      return Optional.empty();
    }
    int lineEnd = text.indexOf('\n', scan.start());
    String printed = text.substring(scan.start(), lineEnd < 0 ? text.length() : lineEnd).strip();
    throw InvalidInputException.of(
        "Cannot read the tables of the query: the plan names one as %s, and a table whose name"
            + " holds ',', '=', '[' or ']' cannot be told from its catalog and namespace; rename"
            + " the table (ALTER TABLE ... RENAME TO ...)",
        printed.endsWith(")") ? printed.substring(0, printed.length() - 1) : printed);
  }

  /**
   * Calcite's unoptimized logical plan. It is read through the planner's own classes (reflectively,
   * since Flink loads its planner in a separate class loader): that costs milliseconds, while
   * {@link Table#explain} also optimizes and costs seconds.
   */
  static String logicalPlan(Table query) {
    String plan = calcitePlan(query.getQueryOperation());
    if (plan != null) {
      return plan;
    }
    String explained = query.explain();
    int optimized = explained.indexOf("== Optimized");
    return optimized > 0 ? explained.substring(0, optimized) : explained;
  }

  /** Calcite's logical plan of {@code operation}, or null when the planner does not give it. */
  private static String calcitePlan(QueryOperation operation) {
    try {
      Method tree = operation.getClass().getMethod("getCalciteTree");
      Object relNode = tree.invoke(operation);
      ClassLoader loader = relNode.getClass().getClassLoader();
      Class<?> relNodeClass = Class.forName("org.apache.calcite.rel.RelNode", false, loader);
      Class<?> relOptUtil = Class.forName("org.apache.calcite.plan.RelOptUtil", false, loader);
      return (String) relOptUtil.getMethod("toString", relNodeClass).invoke(null, relNode);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
