package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
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
    assertThat(pins.snapshotsOf(Set.of("s.src"))).as("recorded").isEqualTo(Map.of("s.src", first));
  }

  @Test
  void aHintThatPicksTheSnapshotByTagOrTimeIsRefusedNotIgnored() throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      org.apache.iceberg.Table src = Catalogs.loadTable(catalog, "s.src");
      src.manageSnapshots().createTag("first", src.currentSnapshot().snapshotId()).commit();
    } finally {
      Catalogs.close(catalog);
    }
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, new SourcePins());

    // Beside the pin, Iceberg would apply snapshot-id and drop the tag: rows 1, 2 and 3.
    assertThatThrownBy(() -> t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('tag'='first') */"))
        .hasRootCauseInstanceOf(InvalidInputException.class)
        .rootCause()
        .hasMessage(
            "it reads s.src with read option 'tag'='first', but a run reads each source at one"
                + " snapshot, which its lineage records: name it with 'snapshot-id' (floe"
                + " snapshots and floe tags list a table's snapshots)");
    assertThatThrownBy(
            () -> t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('as-of-timestamp'='1') */"))
        .rootCause()
        .hasMessageContaining("read option 'as-of-timestamp'='1'");
  }

  @Test
  void oneTableReadAtTwoSnapshotsIsRefused() throws Exception {
    long first = currentSnapshot("s.src");
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, new SourcePins());

    assertThatThrownBy(
            () ->
                t.sqlQuery(
                    "SELECT id FROM s.src EXCEPT SELECT id FROM s.src"
                        + " /*+ OPTIONS('snapshot-id'='"
                        + first
                        + "') */"))
        .rootCause()
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("it reads s.src at two snapshots");
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
