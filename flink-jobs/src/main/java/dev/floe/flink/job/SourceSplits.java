package dev.floe.flink.job;

import java.util.List;
import org.apache.flink.table.api.TableConfig;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.flink.FlinkConfigOptions;
import org.apache.iceberg.flink.FlinkReadOptions;

/**
 * How a run's Iceberg sources are cut into read tasks, so that reading chains with writing.
 *
 * <p>Iceberg packs files into splits of up to 128 MB, each file counting at least 4 MB. A slice
 * staged as a few files of tens of MB (a daily export) is then ONE split: Iceberg's source infers
 * one task from it, a task that cannot chain with the run's writers, so every row crosses a
 * blocking exchange and the writers start only after the last row is read. With smaller splits
 * ({@link #SPLIT_SIZE}) and the inferred source parallelism capped at the writers', the source runs
 * with as many tasks as there are splits, up to the writers' parallelism, and each task reads and
 * writes in one chain (docs/benchmarks.md: 10 M rows in two files).
 *
 * <p>The cap applies only where the source chains with the writers (a row-wise query of an
 * overwrite or swap): a join or aggregate keeps the source parallelism Iceberg infers. A source
 * table's own {@code read.split.target-size} or {@code read.split.open-file-cost} wins: when any
 * scanned table sets one, the split size is left alone. A query's read hints win over both.
 */
final class SourceSplits {

  /**
   * Files are packed into splits of this size instead of Iceberg's 128 MB, each file counting at
   * least Iceberg's 4 MB open cost: two files of more than 8 MB are two splits, while small files
   * still share one, four to a split. A file larger than this is cut at its row groups, as before.
   */
  static final long SPLIT_SIZE = 16L << 20;

  private SourceSplits() {}

  /**
   * Sets the table environment's Iceberg read options for a job about to be translated.
   *
   * @param config the table environment's configuration, before the query is translated
   * @param writers the writers' parallelism; 0 or less when Flink's default decides it
   * @param chains whether the source's rows go straight to the parallel writers ({@link #rowWise}),
   *     so that a source with their parallelism runs in one chain with them; otherwise Iceberg
   *     infers the source's parallelism from its splits, up to its own cap, as before
   * @param sources the Iceberg tables the query scans
   */
  static void configure(TableConfig config, int writers, boolean chains, List<Table> sources) {
    if (chains && writers > 0) {
      config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX, writers);
    }
    boolean ownSplits =
        sources.stream()
            .anyMatch(
                table ->
                    table.properties().containsKey(TableProperties.SPLIT_SIZE)
                        || table.properties().containsKey(TableProperties.SPLIT_OPEN_FILE_COST));
    if (!ownSplits) {
      config.set(FlinkReadOptions.SPLIT_SIZE_OPTION, SPLIT_SIZE);
    }
  }

  /**
   * Whether a query's logical plan ({@link QueryInspector.Inspection#plan}) is projections and
   * filters of ONE table scan: each output row comes from one input row, with no exchange between
   * the source and whatever consumes its rows. Anything else (a join, an aggregate, a sort, a
   * union, a plan this does not recognise) is not.
   */
  static boolean rowWise(String plan) {
    int scans = 0;
    for (String line : plan.strip().split("\n")) {
      String node = line.strip();
      if (node.startsWith("LogicalTableScan(")) {
        scans++;
      } else if (!node.startsWith("LogicalProject(") && !node.startsWith("LogicalFilter(")) {
        return false;
      }
    }
    return scans == 1;
  }
}
