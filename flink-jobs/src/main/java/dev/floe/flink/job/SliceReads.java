package dev.floe.flink.job;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.flink.session.FlinkSessions;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Decides whether a job's query reads, of its sources, only rows of the slice it loads, told by the
 * source's column of the slice column's name. Then a row appended to the source outside the slice
 * cannot change the slice: a resumed backfill may skip the slice ({@link
 * dev.floe.catalog.window.SourceChanges}), and {@code floe late} counts the slice's late rows by
 * that column ({@link dev.floe.catalog.window.LateRows}). It holds when the query, bound to the
 * slice, plans (Calcite's logical plan, before any optimization) to a tree over one table scan
 * whose parent is a filter holding {@code column >= :slice_start} and {@code column < :slice_end}
 * (or {@code :slice_start <= column}, {@code :slice_end > column}) among its top-level conjuncts,
 * {@code column} being the table's column of the slice column's name: every row the query reads
 * passes that filter. What it computes above (an aggregate, the slice's date as a value) does not
 * widen what it reads. A join or a subquery (two scans), a window over the days before the slice, a
 * read option or hint (which may read another snapshot), or a function whose result depends on when
 * the query runs, may read other rows. Fails closed: a plan it does not recognise may. The query is
 * planned for the slice and for the next one: a bound written into the query as a literal matches
 * one slice's bound at most, so only bounds that come from {@code :slice_start} and {@code
 * :slice_end} pass for both.
 */
public final class SliceReads {
  private static final Pattern SCAN =
      Pattern.compile("^( *)LogicalTableScan\\(table=\\[\\[([^\\[\\]]*)\\]\\]\\)$");
  private static final Pattern FILTER =
      Pattern.compile("^( *)LogicalFilter\\(condition=\\[(.*)\\]\\)$");

  private SliceReads() {}

  /**
   * Why the job's query may read source rows outside the slice it loads, or empty when it provably
   * does not, for any slice. Plans the query bound to {@code slice} and to the next slice on {@code
   * catalog}; runs nothing. A query that does not plan (a table it reads is gone) may.
   */
  public static Optional<String> whyItMayReadBeyond(
      JobSpec spec, CatalogConfig catalog, Slice slice) {
    try {
      StreamTableEnvironment tableEnv =
          FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), catalog);
      Optional<String> why = whyItMayReadBeyond(spec, tableEnv, slice);
      return why.isPresent() ? why : whyItMayReadBeyond(spec, tableEnv, another(slice));
    } catch (FloeException e) {
      return Optional.of("its query does not plan now: " + e.getMessage());
    }
  }

  /** A slice of the same column and unit one unit away from {@code slice}. */
  private static Slice another(Slice slice) {
    SliceUnit unit = slice.unit();
    boolean forward = slice.start().getYear() < 5000;
    return new Slice(
        slice.column(),
        slice.kind(),
        unit,
        forward ? unit.next(slice.start()) : unit.previous(slice.start()),
        forward ? unit.next(slice.end()) : unit.previous(slice.end()));
  }

  private static Optional<String> whyItMayReadBeyond(
      JobSpec spec, StreamTableEnvironment tableEnv, Slice slice) {
    Table query =
        SliceJob.plan(tableEnv, QueryBinder.bind(spec.query(), slice, spec.source()), spec);
    QueryInspector.Inspection inspection = QueryInspector.inspect(query);
    if (!inspection.nondeterministicCalls().isEmpty()) {
      return Optional.of(
          "the query calls " + String.join(", ", inspection.nondeterministicCalls()));
    }
    String plan = inspection.plan();
    if (plan.contains("hints=")) {
      return Optional.of("the query gives a table read options or hints (/*+ OPTIONS(...) */)");
    }
    String[] lines = plan.strip().split("\n");
    int scanLine = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("TableScan(")) {
        if (scanLine >= 0) {
          return Optional.of("the query reads more than one table (a join or a subquery)");
        }
        scanLine = i;
      }
    }
    Matcher scan = scanLine > 0 ? SCAN.matcher(lines[scanLine]) : null;
    Matcher filter = scanLine > 0 ? FILTER.matcher(lines[scanLine - 1]) : null;
    if (scan == null
        || !scan.matches()
        || !filter.matches()
        || filter.group(1).length() + 2 != scan.group(1).length()) {
      return Optional.of("the query does not filter its table right where it reads it");
    }
    List<String> conjuncts = SplittableQuery.conjuncts(filter.group(2));
    String start = SplittableQuery.planLiteral(slice, slice.start());
    String end = SplittableQuery.planLiteral(slice, slice.end());
    List<String> columns = columnsOf(tableEnv, scan.group(2));
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equals(spec.sliceColumn())) {
        String column = "$" + i;
        boolean fromStart =
            conjuncts.contains(">=(" + column + ", " + start + ")")
                || conjuncts.contains("<=(" + start + ", " + column + ")");
        boolean beforeEnd =
            conjuncts.contains("<(" + column + ", " + end + ")")
                || conjuncts.contains(">(" + end + ", " + column + ")");
        if (fromStart && beforeEnd) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(
        "its WHERE clause does not hold "
            + spec.sliceColumn()
            + " >= :slice_start AND "
            + spec.sliceColumn()
            + " < :slice_end on its table's column "
            + spec.sliceColumn());
  }

  /**
   * The columns of the table a scan names ({@code floe, sales, orders}), in order; none when the
   * name cannot be read back whole (a part holding a comma).
   */
  private static List<String> columnsOf(StreamTableEnvironment tableEnv, String scanned) {
    String[] parts = scanned.split(", ");
    if (parts.length != 3) {
      return List.of();
    }
    StringBuilder name = new StringBuilder();
    for (String part : parts) {
      name.append(name.isEmpty() ? "" : ".").append('`').append(part.replace("`", "``"));
      name.append('`');
    }
    return tableEnv.from(name.toString()).getResolvedSchema().getColumnNames();
  }
}
