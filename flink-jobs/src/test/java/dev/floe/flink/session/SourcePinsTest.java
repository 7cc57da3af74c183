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
  void aHintNamingAnotherSnapshotThanThePinIsRefused() throws Exception {
    long first = currentSnapshot("s.src");
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("INSERT INTO s.src VALUES (3)")
        .await();
    long current = currentSnapshot("s.src");
    SourcePins pins = new SourcePins();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, pins);

    // Read at the old snapshot, every rerun would read it again: rows 3 would stay late forever.
    assertThatThrownBy(
            () -> t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('snapshot-id'='" + first + "') */"))
        .rootCause()
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "it reads s.src with read option 'snapshot-id'='"
                + first
                + "', but a run reads each source at its current snapshot ("
                + current
                + "), which its lineage records and late-data checks start from; read an older"
                + " snapshot with floe sql");
    // Also within one query that reads the table at its pin too.
    assertThatThrownBy(
            () ->
                t.sqlQuery(
                    "SELECT id FROM s.src EXCEPT SELECT id FROM s.src"
                        + " /*+ OPTIONS('snapshot-id'='"
                        + first
                        + "') */"))
        .rootCause()
        .hasMessageContaining("read option 'snapshot-id'='" + first + "'");

    Table atThePin =
        t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('snapshot-id'='" + current + "') */");
    assertThat(ids(atThePin)).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(pins.snapshotsOf(Set.of("s.src"))).isEqualTo(Map.of("s.src", current));
  }

  @Test
  void aTablePropertyNamingTheCurrentSnapshotIsReadAtThePin() throws Exception {
    long current = currentSnapshot("s.src");
    FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config)
        .executeSql("ALTER TABLE s.src SET ('snapshot-id'='" + current + "')")
        .await();
    SourcePins pins = new SourcePins();
    StreamTableEnvironment t =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config, pins);

    Table planned = t.sqlQuery("SELECT id FROM s.src");

    assertThat(ids(planned)).containsExactlyInAnyOrder(1L, 2L);
    assertThat(pins.snapshotsOf(Set.of("s.src"))).isEqualTo(Map.of("s.src", current));
  }

  @Test
  void aHintThatPicksTheSnapshotByTagOrTimeOrReadsAnIncrementIsRefusedNotIgnored()
      throws Exception {
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
            "it reads s.src with read option 'tag'='first' (a query hint or a table property),"
                + " but a run reads each source at its current snapshot, which its lineage"
                + " records; read a tag, branch or time with floe sql");
    assertThatThrownBy(
            () -> t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('as-of-timestamp'='1') */"))
        .rootCause()
        .hasMessageContaining("read option 'as-of-timestamp'='1'");
    assertThatThrownBy(() -> t.sqlQuery("SELECT id FROM s.src /*+ OPTIONS('start-tag'='first') */"))
        .rootCause()
        .hasMessageContaining("not what changed between two snapshots");
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
