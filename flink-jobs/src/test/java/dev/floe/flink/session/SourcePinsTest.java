package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A planned query reads its sources as of planning, whatever commits before its job scans them: the
 * snapshot the run's lineage records is exactly the one it read.
 */
class SourcePinsTest {
  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void createSource() throws Exception {
    config = CatalogConfigLoader.embedded(home);
    StreamTableEnvironment setup =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    setup.executeSql("CREATE DATABASE IF NOT EXISTS s").await();
    setup.executeSql("CREATE TABLE s.src (id BIGINT)").await();
    setup.executeSql("INSERT INTO s.src VALUES (1), (2)").await();
  }

  @Test
  void aPlannedQueryReadsThePinnedSnapshotAfterTheSourceMoved() throws Exception {
    SourcePins pins = new SourcePins();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, pins);
    Table planned = t.sqlQuery("SELECT id FROM s.src");
    long before = currentSnapshot("s.src");

    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();

    assertThat(currentSnapshot("s.src")).isNotEqualTo(before);
    assertThat(pins.snapshotsOf(Set.of("s.src"))).isEqualTo(Map.of("s.src", before));
    assertThat(ids(planned)).containsExactlyInAnyOrder(1L, 2L);
  }

  @Test
  void withoutPinsTheQueryReadsWhatIsCurrentWhenItsJobScans() throws Exception {
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
    Table planned = t.sqlQuery("SELECT id FROM s.src");

    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();

    assertThat(ids(planned)).containsExactlyInAnyOrder(1L, 2L, 3L);
  }

  @Test
  void aHintNamingASnapshotWinsOverThePin() throws Exception {
    long first = currentSnapshot("s.src");
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();
    SourcePins pins = new SourcePins();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, pins);

    Table planned =
        t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('snapshot-id'='" + first + "') */");

    assertThat(ids(planned)).containsExactlyInAnyOrder(1L, 2L);
  }

  private long currentSnapshot(String table) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, table).currentSnapshot().snapshotId();
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static List<Long> ids(Table query) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (CloseableIterator<Row> rows = query.execute().collect()) {
      rows.forEachRemaining(row -> ids.add((Long) row.getField(0)));
    }
    return ids;
  }
}
