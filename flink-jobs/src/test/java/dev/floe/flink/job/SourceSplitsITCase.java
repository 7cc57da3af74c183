package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.flink.session.FlinkSessions;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning only (no job runs): how many tasks Iceberg's source gets for a slice staged as a few
 * small files, read through Flink's planner as a run reads it.
 */
class SourceSplitsITCase {
  private static final String QUERY =
      "SELECT id, d FROM sales.%s WHERE d >= DATE '2026-10-03' AND d < DATE '2026-10-04'";

  @TempDir static Path home;

  @BeforeAll
  static void stageTables() throws Exception {
    StreamTableEnvironment tableEnv =
        FlinkSessions.tableEnvironment(
            FlinkSessions.batchEnvironment(1), CatalogConfigLoader.embedded(home));
    tableEnv.executeSql("CREATE DATABASE sales").await();
    for (String table : List.of("five_files", "thirteen_files", "own_open_cost")) {
      tableEnv.executeSql("CREATE TABLE sales." + table + " (id BIGINT, d DATE)").await();
      int files = table.equals("thirteen_files") ? 13 : 5;
      for (int i = 0; i < files; i++) {
        // One INSERT with parallelism 1: one small data file each.
        tableEnv
            .executeSql("INSERT INTO sales." + table + " VALUES (" + i + ", DATE '2026-10-03')")
            .await();
      }
    }
    tableEnv
        .executeSql(
            "ALTER TABLE sales.own_open_cost SET ('"
                + TableProperties.SPLIT_OPEN_FILE_COST
                + "'='4194304')")
        .await();
  }

  @Test
  void aSliceInFiveSmallFilesIsReadByTwoTasks() throws Exception {
    // Each file counts Iceberg's 4 MB open cost: 20 MB fit one split of 128 MB, not of 16 MB.
    assertThat(sourceParallelism("five_files", 2, false)).isEqualTo(1);
    assertThat(sourceParallelism("five_files", 2, true)).isEqualTo(2);
  }

  @Test
  void theSourceHasAtMostTheWritersParallelism() throws Exception {
    assertThat(sourceParallelism("thirteen_files", 8, true)).isEqualTo(4); // 52 MB: 4 splits
    assertThat(sourceParallelism("thirteen_files", 2, true)).isEqualTo(2);
  }

  @Test
  void aTablesOwnSplitSettingIsKept() throws Exception {
    assertThat(sourceParallelism("own_open_cost", 2, true)).isEqualTo(1);
  }

  /** The parallelism Flink gives the query's source, with or without {@link SourceSplits}. */
  private static int sourceParallelism(String table, int parallelism, boolean configured)
      throws Exception {
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(parallelism);
    StreamTableEnvironment tableEnv =
        FlinkSessions.tableEnvironment(env, CatalogConfigLoader.embedded(home));
    org.apache.flink.table.api.Table query = tableEnv.sqlQuery(String.format(QUERY, table));
    if (configured) {
      Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
      try {
        Table source = Catalogs.loadTable(catalog, "sales." + table);
        SourceSplits.configure(tableEnv.getConfig(), parallelism, true, List.of(source));
      } finally {
        Catalogs.close(catalog);
      }
    }
    tableEnv.toDataStream(query).sinkTo(new DiscardingSink<>());
    return env.getStreamGraph().getStreamNodes().stream()
        .filter(node -> node.getOperatorName().startsWith("Source"))
        .mapToInt(StreamNode::getParallelism)
        .max()
        .orElseThrow();
  }
}
