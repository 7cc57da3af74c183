package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkSessionsSmokeTest {
  @TempDir Path home;

  @Test
  void runsSqlAgainstTheEmbeddedCatalog() throws Exception {
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(
            FlinkSessions.batchEnvironment(2), CatalogConfigLoader.embedded(home));
    t.executeSql("CREATE DATABASE IF NOT EXISTS sales").await();
    t.executeSql("CREATE TABLE sales.t (id BIGINT, d DATE)").await();
    t.executeSql("INSERT INTO sales.t VALUES (1, DATE '2026-10-03'), (2, DATE '2026-10-04')")
        .await();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = t.executeSql("SELECT count(*) FROM sales.t").collect()) {
      it.forEachRemaining(rows::add);
    }
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getField(0)).isEqualTo(2L);
  }
}
