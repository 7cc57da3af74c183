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
 * <p>Iceberg packs small files into splits of up to 128 MB, each file counting at least 4 MB. A
 * slice staged as a few files of tens of MB (a daily export) is then ONE split: Iceberg's source
 * infers one task from it, a task that cannot chain with the run's writers, so every row crosses a
 * blocking exchange and the writers start only after the last row is read. With each file its own
 * split and the inferred source parallelism capped at the writers', the source runs with as many
 * tasks as there are files, up to the writers' parallelism, and each task reads and writes in one
 * chain (docs/benchmarks.md: 10 M rows in two files).
 *
 * <p>A source table's own {@code read.split.target-size} or {@code read.split.open-file-cost} wins:
 * when any scanned table sets one, only the cap is set. A query's read hints win over both.
 */
final class SourceSplits {

  private SourceSplits() {}

  /**
   * Sets the table environment's Iceberg read options for a job about to be translated.
   *
   * @param config the table environment's configuration, before the query is translated
   * @param parallelism the writers' parallelism
   * @param sources the Iceberg tables the query scans
   */
  static void configure(TableConfig config, int parallelism, List<Table> sources) {
    config.set(FlinkConfigOptions.TABLE_EXEC_ICEBERG_INFER_SOURCE_PARALLELISM_MAX, parallelism);
    boolean ownSplits =
        sources.stream()
            .anyMatch(
                table ->
                    table.properties().containsKey(TableProperties.SPLIT_SIZE)
                        || table.properties().containsKey(TableProperties.SPLIT_OPEN_FILE_COST));
    if (!ownSplits) {
      // A file that costs a whole split to open is never packed with another; a larger file is
      // still cut at its row groups.
      config.set(FlinkReadOptions.SPLIT_FILE_OPEN_COST_OPTION, TableProperties.SPLIT_SIZE_DEFAULT);
    }
  }
}
