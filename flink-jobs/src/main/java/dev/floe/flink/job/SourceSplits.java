package dev.floe.flink.job;

import org.apache.flink.table.api.TableConfig;
import org.apache.iceberg.flink.FlinkConfigOptions;
import org.apache.iceberg.flink.FlinkReadOptions;

/**
 * How a run's Iceberg source is cut into read tasks when it feeds the writers directly, so that
 * reading and writing run in one chain.
 *
 * <p>Iceberg packs files into splits of up to 128 MB, each file counting at least 4 MB. A slice
 * staged as a few files of tens of MB (a daily export) is then ONE split: Iceberg's source infers
 * one task from it, a task that cannot chain with the run's writers, so every row crosses a
 * blocking exchange and the writers start only after the last row is read. With splits of {@link
 * #SPLIT_SIZE} and the inferred source parallelism capped at the writers', the source gets as many
 * tasks as there are splits, up to the writers' parallelism; when it gets exactly that many (two
 * files or more for two writers), each task reads and writes in one chain. With fewer splits than
 * writers the exchange remains, with more read tasks than before.
 *
 * <p>Only a row-wise query ({@link #rowWise}) of an overwrite or swap feeds the writers directly:
 * anything else (a join, an aggregate, a window, a keyed mode's single committer) keeps Iceberg's
 * own splits and inferred parallelism. A query's read hints win, option by option ({@code
 * split-size}, {@code split-file-open-cost}). A table's {@code read.split.*} properties do not:
 * Iceberg 1.11's Flink source reads the session's value (its default, unless set) before the
 * table's, so they had no effect before either.
 */
public final class SourceSplits {

  /**
   * Files are packed into splits of this size instead of Iceberg's 128 MB, each file counting at
   * least Iceberg's 4 MB open cost: two files of more than 8 MB are two splits, while small files
   * still share one, four to a split. Files are still cut at their row groups only.
   */
  public static final long SPLIT_SIZE = 16L << 20;

  private SourceSplits() {}

  /**
   * Sets the table environment's Iceberg read options for a job about to be translated, when its
   * source feeds its writers directly; otherwise changes nothing.
   *
   * @param config the table environment's configuration, before the query is translated
   * @param writers the writers' parallelism; 0 or less when Flink's default decides it later
   * @param feedsWriters whether the source's rows go straight to the parallel writers: a row-wise
   *     query of a mode with parallel writers
   */
  static void configure(TableConfig config, int writers, boolean feedsWriters) {
    if (!feedsWriters || writers <= 0) {
      return;
    }
    config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX, writers);
    config.set(FlinkReadOptions.SPLIT_SIZE_OPTION, SPLIT_SIZE);
  }

  /**
   * Whether a query's logical plan ({@link QueryInspector.Inspection#plan}) is projections and
   * filters of ONE table scan, with no window function: each output row comes from one input row,
   * with no exchange between the source and whatever consumes its rows. Anything else (a join, an
   * aggregate, a sort or limit, a union, an {@code OVER} window, a plan this does not recognise) is
   * not.
   */
  static boolean rowWise(String plan) {
    int scans = 0;
    for (String line : plan.strip().split("\\n")) {
      String node = line.strip();
      if (node.startsWith("LogicalTableScan(")) {
        scans++;
      } else if (!(node.startsWith("LogicalProject(") || node.startsWith("LogicalFilter("))
          || node.contains(" OVER (")) {
        return false;
      }
    }
    return scans == 1;
  }
}
