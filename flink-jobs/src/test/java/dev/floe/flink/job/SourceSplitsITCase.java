package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.flink.session.FlinkSessions;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning only (no job runs): how many tasks Iceberg's source gets for a slice staged as a few
 * small files, read through Flink's planner as a run reads it.
 */
class SourceSplitsITCase {
  private static final String SLICE =
      "SELECT id, d FROM sales.%s WHERE d >= DATE '2026-10-03' AND d < DATE '2026-10-04'";

  @TempDir static Path home;
  private static StreamTableEnvironment planner;

  @BeforeAll
  static void stageTables() throws Exception {
    planner =
        FlinkSessions.tableEnvironment(
            FlinkSessions.batchEnvironment(1), CatalogConfigLoader.embedded(home));
    planner.executeSql("CREATE DATABASE sales").await();
    for (String table : List.of("five_files", "thirteen_files")) {
      planner.executeSql("CREATE TABLE sales." + table + " (id BIGINT, d DATE)").await();
      int files = table.equals("thirteen_files") ? 13 : 5;
      for (int i = 0; i < files; i++) {
        // One INSERT with parallelism 1: one small data file each.
        planner
            .executeSql("INSERT INTO sales." + table + " VALUES (" + i + ", DATE '2026-10-03')")
            .await();
      }
    }
  }

  @Test
  void aSliceInFiveSmallFilesIsReadByAsManyTasksAsWriters() throws Exception {
    // Each file counts Iceberg's 4 MB open cost: 20 MB fit one split of 128 MB, not of 16 MB.
    assertThat(sourceParallelism(slice("five_files"), 2, config -> {})).isEqualTo(1);
    assertThat(sourceParallelism(slice("five_files"), 2, writers(2))).isEqualTo(2);
  }

  @Test
  void theSourceHasAtMostTheWritersParallelism() throws Exception {
    assertThat(sourceParallelism(slice("thirteen_files"), 8, writers(8))).isEqualTo(4); // 52 MB
    assertThat(sourceParallelism(slice("thirteen_files"), 2, writers(2))).isEqualTo(2);
  }

  @Test
  void nothingChangesUnlessTheSourceFeedsWritersOfAKnownParallelism() throws Exception {
    assertThat(
            sourceParallelism(
                slice("five_files"), 2, config -> SourceSplits.configure(config, 2, false)))
        .isEqualTo(1);
    assertThat(
            sourceParallelism(
                slice("five_files"), 2, config -> SourceSplits.configure(config, 0, true)))
        .isEqualTo(1);
  }

  @Test
  void aReadHintWins() throws Exception {
    String hinted =
        "SELECT id, d FROM sales.five_files /*+ OPTIONS('split-size'='134217728') */"
            + " WHERE d >= DATE '2026-10-03'";

    assertThat(sourceParallelism(hinted, 2, writers(2))).isEqualTo(1);
  }

  @Test
  void onlyProjectionsAndFiltersOfOneTableAreRowWise() {
    assertThat(rowWise(slice("five_files"))).isTrue();
    assertThat(rowWise("SELECT id + 1 AS id, d FROM sales.five_files")).isTrue();
    assertThat(
            rowWise(
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY id ORDER BY d) AS n"
                    + " FROM sales.five_files"))
        .isFalse();
    assertThat(rowWise("SELECT d, COUNT(*) AS n FROM sales.five_files GROUP BY d")).isFalse();
    assertThat(
            rowWise(
                "SELECT f.id, t.d FROM sales.five_files f JOIN sales.thirteen_files t"
                    + " ON f.id = t.id"))
        .isFalse();
    assertThat(rowWise("SELECT id, d FROM sales.five_files LIMIT 3")).isFalse();
    assertThat(
            rowWise(
                "SELECT id, d FROM sales.five_files UNION ALL SELECT id, d FROM sales.thirteen_files"))
        .isFalse();
  }

  private static String slice(String table) {
    return String.format(SLICE, table);
  }

  private static Consumer<TableConfig> writers(int parallelism) {
    return config -> SourceSplits.configure(config, parallelism, true);
  }

  private static boolean rowWise(String query) {
    return SourceSplits.rowWise(QueryInspector.inspect(planner.sqlQuery(query)).plan());
  }

  /** The parallelism Flink gives the query's source, configured after planning as a run does. */
  private static int sourceParallelism(
      String query, int parallelism, Consumer<TableConfig> configure) throws Exception {
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(parallelism);
    StreamTableEnvironment tableEnv =
        FlinkSessions.tableEnvironment(env, CatalogConfigLoader.embedded(home));
    org.apache.flink.table.api.Table planned = tableEnv.sqlQuery(query);
    configure.accept(tableEnv.getConfig());
    tableEnv.toDataStream(planned).sinkTo(new DiscardingSink<>());
    return env.getStreamGraph().getStreamNodes().stream()
        .filter(node -> node.getOperatorName().startsWith("Source"))
        .mapToInt(StreamNode::getParallelism)
        .max()
        .orElseThrow();
  }
}
