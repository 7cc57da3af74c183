package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.flink.session.FlinkSessions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code CREATE TABLE} (with or without AS) or {@code ALTER TABLE ... SET} of {@code floe sql}
 * that would give an Iceberg table a property value Iceberg cannot parse is refused before anything
 * runs: no table, no data file, no changed property.
 */
class PropertyChangesTest {
  private static final String LIMIT = "write.summary.partition-limit";
  private static final String PAGE_ROWS = "write.parquet.page-row-limit";

  @TempDir static Path home;
  private static CatalogConfig config;
  private static SqlRunner runner;
  private static final AtomicInteger JOBS = new AtomicInteger();

  @BeforeAll
  static void aCatalogWithADatabase() {
    config = CatalogConfigLoader.embedded(home);
    runner =
        new SqlRunner(
            FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(2), config),
            config,
            JOBS::incrementAndGet);
    run("CREATE DATABASE sales");
  }

  private static List<StatementResult> run(String sql) {
    return runner.run(SqlScript.fromCommandLine(sql));
  }

  private static String refusal(String table, String value) {
    return "Cannot run SQL statement 1 (line 1 of the command line): property "
        + LIMIT
        + " of sales."
        + table
        + ": expected a whole number up to 2147483647 for Iceberg's "
        + LIMIT
        + ", got '"
        + value
        + "' (Iceberg could not write the table)";
  }

  @Test
  void aCreateTableAsGivingTheNewTableAnUnparseablePropertyIsRefusedBeforeItsJob() {
    int jobs = JOBS.get();

    assertThatThrownBy(
            () -> run("CREATE TABLE sales.ctas_bad WITH ('" + LIMIT + "'='x') AS SELECT 1 AS id"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(refusal("ctas_bad", "x"));

    assertThat(JOBS.get()).as("no job started").isEqualTo(jobs);
    assertNoTable("ctas_bad");
  }

  @Test
  void aCreateTableGivingItAnUnparseablePropertyIsRefusedAndCreatesNothing() {
    assertThatThrownBy(
            () -> run("CREATE TABLE sales.create_bad (id INT) WITH ('" + LIMIT + "'=' 5')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(refusal("create_bad", " 5"));
    assertThatThrownBy(
            () ->
                run(
                    "CREATE TABLE sales.create_bad (id INT) WITH ('gc.enabled'='yes',"
                        + " 'owner'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property gc.enabled of"
                + " sales.create_bad: expected true or false for Iceberg's gc.enabled, got 'yes'"
                + " (Iceberg would read it as false)");
    // A value with a line break is shown on the message's one line, a long one cut.
    assertThatThrownBy(
            () ->
                run(
                    "CREATE TABLE sales.create_bad (id INT) WITH ('"
                        + LIMIT
                        + "'='1\n2"
                        + "9".repeat(5000)
                        + "')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(refusal("create_bad", "1\\n2").replaceFirst("' \\(.*$", ""))
        .hasMessageEndingWith("(5003 characters)' (Iceberg could not write the table)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").hasSizeLessThan(400));

    assertNoTable("create_bad");
  }

  @Test
  void anAlterTableSettingAnUnparseablePropertyIsRefusedAndChangesNothing() {
    run("CREATE TABLE sales.alter_bad (id INT) WITH ('" + LIMIT + "'='5', 'owner'='a')");

    assertThatThrownBy(
            () -> run("ALTER TABLE sales.alter_bad SET ('owner'='b', '" + LIMIT + "'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(refusal("alter_bad", "x"));

    withTable("alter_bad", t -> assertThat(t.properties()).containsEntry(LIMIT, "5"));
    withTable("alter_bad", t -> assertThat(t.properties()).containsEntry("owner", "a"));
    run("INSERT INTO sales.alter_bad VALUES (1)");
    assertThat(count("alter_bad")).isEqualTo(1L);
  }

  @Test
  void validValuesAreSetAndTheTablesWritten() {
    run("CREATE TABLE sales.ctas_ok WITH ('" + LIMIT + "'='5') AS SELECT 1 AS id");
    run("CREATE TABLE sales.create_ok (id INT) WITH ('" + LIMIT + "'='5', 'gc.enabled'='TRUE')");
    run("INSERT INTO sales.create_ok VALUES (1)");
    run("ALTER TABLE sales.create_ok SET ('" + LIMIT + "'='7')");
    run("INSERT INTO sales.create_ok VALUES (2)");

    withTable("ctas_ok", t -> assertThat(t.properties()).containsEntry(LIMIT, "5"));
    withTable("create_ok", t -> assertThat(t.properties()).containsEntry(LIMIT, "7"));
    assertThat(count("ctas_ok")).isEqualTo(1L);
    assertThat(count("create_ok")).isEqualTo(2L);
  }

  @Test
  void anAlterTableMayRepairAnUnparseablePropertyAndLeavesTheOthersToTheWrite() {
    // Through Iceberg's API, as another engine would, before the session ever loads the table.
    Catalog catalog = Catalogs.open(config);
    try {
      catalog.createTable(
          TableIdentifier.of("sales", "repaired"),
          new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get())),
          PartitionSpec.unpartitioned(),
          Map.of(LIMIT, "x", PAGE_ROWS, "y"));
    } finally {
      Catalogs.close(catalog);
    }

    // Only what the statement sets is its to answer for; a write still names what is left.
    run("ALTER TABLE sales.repaired SET ('" + LIMIT + "'='5', 'owner'='b')");
    assertThatThrownBy(() -> run("INSERT INTO sales.repaired VALUES (1)"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("property " + PAGE_ROWS + " of sales.repaired");
    run("ALTER TABLE sales.repaired SET ('" + PAGE_ROWS + "'='100')");
    run("INSERT INTO sales.repaired VALUES (1)");

    assertThat(count("repaired")).isEqualTo(1L);
  }

  @Test
  void aCreateIfNotExistsOfATableThatExistsGivesItNothingAndIsNotRefused() {
    run("CREATE TABLE sales.existing (id INT) WITH ('" + LIMIT + "'='5')");

    run("CREATE TABLE IF NOT EXISTS sales.existing (id INT) WITH ('" + LIMIT + "'='x')");
    run("CREATE TABLE IF NOT EXISTS sales.existing WITH ('" + LIMIT + "'='x') AS SELECT 1 AS id");

    withTable("existing", t -> assertThat(t.properties()).containsEntry(LIMIT, "5"));
    assertThat(count("existing")).isEqualTo(1L);
    // A new table is given the value: refused as without IF NOT EXISTS.
    assertThatThrownBy(
            () -> run("CREATE TABLE IF NOT EXISTS sales.fresh (id INT) WITH ('" + LIMIT + "'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(refusal("fresh", "x"));
    assertNoTable("fresh");
  }

  @Test
  void keysFloeWritesItselfAreNeitherSetNorResetBySql() {
    assertThatThrownBy(
            () ->
                run(
                    "CREATE TABLE sales.floe_keys (id INT) WITH"
                        + " ('floe.maintain.min-input-files'='many')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property"
                + " floe.maintain.min-input-files of sales.floe_keys is Floe's own (keys under"
                + " floe.): `floe tables apply` writes them from the table's spec (CREATE TABLE"
                + " ... LIKE copies them unless EXCLUDING OPTIONS)");
    assertNoTable("floe_keys");

    // As floe tables apply and floe late apply leave a table.
    Catalog catalog = Catalogs.open(config);
    try {
      catalog.createTable(
          TableIdentifier.of("sales", "floe_keys"),
          new Schema(Types.NestedField.optional(1, "id", Types.IntegerType.get())),
          PartitionSpec.unpartitioned(),
          Map.of(
              "floe.spec-properties", "owner", "owner", "a", "floe.sealed-through", "2026-10-05"));
    } finally {
      Catalogs.close(catalog);
    }
    assertThatThrownBy(
            () -> run("ALTER TABLE sales.floe_keys SET ('floe.sealed-through'='2026-12-01')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property"
                + " floe.sealed-through of sales.floe_keys is Floe's own: `floe late apply` moves"
                + " it");
    assertThatThrownBy(() -> run("ALTER TABLE sales.floe_keys RESET ('floe.spec-properties')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("property floe.spec-properties of sales.floe_keys is Floe's own");
    run("ALTER TABLE sales.floe_keys SET ('owner'='b')");

    withTable(
        "floe_keys",
        t ->
            assertThat(t.properties())
                .containsEntry("floe.sealed-through", "2026-10-05")
                .containsEntry("floe.spec-properties", "owner")
                .containsEntry("owner", "b"));
  }

  @Test
  void anAlterSettingTheCurrentSnapshotIsRefusedAndTheTableStaysWhereItWas() {
    run("CREATE TABLE sales.moved (id INT)");
    run("INSERT INTO sales.moved VALUES (1)");
    run("INSERT INTO sales.moved VALUES (2)");
    long[] snapshots = new long[2];
    withTable(
        "moved",
        t -> {
          snapshots[0] = t.currentSnapshot().parentId();
          snapshots[1] = t.currentSnapshot().snapshotId();
        });

    // Iceberg's Flink catalog rolls back for this key, and cherry-picks for the other.
    assertThatThrownBy(
            () -> run("ALTER TABLE sales.moved SET ('current-snapshot-id'='" + snapshots[0] + "')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property"
                + " current-snapshot-id of sales.moved would make snapshot '"
                + snapshots[0]
                + "' current and leave the snapshots after it to expiry: roll back with `floe"
                + " rollback TABLE --to-snapshot ID`, which tags the head so it can be undone");
    // Iceberg's Flink catalog takes the key in any case.
    assertThatThrownBy(
            () -> run("ALTER TABLE sales.moved SET ('Current-Snapshot-Id'='" + snapshots[0] + "')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("property Current-Snapshot-Id of sales.moved would make snapshot");
    assertThatThrownBy(
            () ->
                run(
                    "ALTER TABLE sales.moved SET ('cherry-pick-snapshot-id'='"
                        + snapshots[0]
                        + "')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("would cherry-pick snapshot '" + snapshots[0] + "' onto main");

    // And moves the table for this one, leaving its files outside what orphan removal lists.
    String[] location = new String[1];
    withTable("moved", t -> location[0] = t.location());
    assertThatThrownBy(() -> run("ALTER TABLE sales.moved SET ('LOCATION'='/tmp/shared')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property LOCATION of"
                + " sales.moved would move the table to '/tmp/shared': the files it holds stay"
                + " where they are, outside what `floe maintain --orphans` then lists, and it would"
                + " list the new location, with other files there");

    withTable("moved", t -> assertThat(t.currentSnapshot().snapshotId()).isEqualTo(snapshots[1]));
    withTable("moved", t -> assertThat(t.location()).isEqualTo(location[0]));
    assertThat(count("moved")).isEqualTo(2L);
  }

  @Test
  void keysIcebergReservesAreRefusedButTheFormatVersionIsChosen() {
    run("CREATE TABLE sales.reserved (id INT) WITH ('format-version'='3')");
    String uuid[] = new String[1];
    withTable("reserved", t -> uuid[0] = t.uuid().toString());

    assertThatThrownBy(() -> run("ALTER TABLE sales.reserved SET ('uuid'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 1 (line 1 of the command line): property uuid of"
                + " sales.reserved is reserved by Iceberg and cannot be set");

    withTable(
        "reserved",
        t -> {
          assertThat(
                  ((org.apache.iceberg.HasTableOperations) t)
                      .operations()
                      .current()
                      .formatVersion())
              .isEqualTo(3);
          assertThat(t.uuid().toString()).isEqualTo(uuid[0]);
        });
  }

  @Test
  void keysIcebergWouldKeepAsPropertiesOfTheirOwnAreRefusedAndChangeNothing() {
    run("CREATE TABLE sales.near_keys (id INT) WITH ('format-version'='2')");
    String prefix = "Cannot run SQL statement 1 (line 1 of the command line): property ";

    assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys SET ('Format-Version'='3')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            prefix
                + "Format-Version of sales.near_keys is Iceberg's reserved format-version in"
                + " another case: Iceberg would keep it as a property of its own and change"
                + " nothing; write 'format-version'");
    assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys SET ('GC.Enabled'='false')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "property GC.Enabled of sales.near_keys is Iceberg's gc.enabled in another case:"
                + " Iceberg reads only 'gc.enabled'");
    assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys SET ('UUID'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining("property UUID of sales.near_keys is Iceberg's reserved uuid");
    assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys SET (' current-snapshot-id'='1')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            prefix
                + " current-snapshot-id of sales.near_keys has spaces or control characters around its name: Iceberg"
                + " would keep it as a property of its own, which nothing reads; write"
                + " 'current-snapshot-id'");
    assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys SET ('FLOE.sealed-through'='x')"))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "property FLOE.sealed-through of sales.near_keys lies under floe., which Floe keeps for"
                + " its own keys");
    for (String key : List.of("format-version", "uuid", "current-snapshot-id")) {
      assertThatThrownBy(() -> run("ALTER TABLE sales.near_keys RESET ('" + key + "')"))
          .isExactlyInstanceOf(InvalidInputException.class)
          .hasMessage(
              prefix
                  + key
                  + " of sales.near_keys cannot be reset: Iceberg keeps it in the table's"
                  + " metadata, not among its properties, so a RESET would change nothing");
    }

    // Iceberg's Flink catalog takes these as commands only in a SET: set by another tool as
    // plain properties, a RESET removes them.
    withTable(
        "near_keys", t -> t.updateProperties().set("Location", "a").set("FLOE.note", "b").commit());
    run("ALTER TABLE sales.near_keys RESET ('Location', 'FLOE.note')");

    withTable(
        "near_keys",
        t -> {
          assertThat(t.properties())
              .doesNotContainKeys(
                  "Location",
                  "FLOE.note",
                  "Format-Version",
                  "UUID",
                  " current-snapshot-id",
                  "FLOE.sealed-through");
          assertThat(
                  ((org.apache.iceberg.HasTableOperations) t)
                      .operations()
                      .current()
                      .formatVersion())
              .isEqualTo(2);
        });
  }

  @Test
  void aTemporaryTableIsNotTheIcebergCatalogsToAnswerFor() {
    // Its options go to its connector, which judges them when a query reads it.
    assertThat(
            run(
                "CREATE TEMPORARY TABLE sales.gen (id INT) WITH ('connector'='datagen', '"
                    + LIMIT
                    + "'='x')"))
        .singleElement()
        .isInstanceOf(OkResult.class);
    run("DROP TEMPORARY TABLE sales.gen");
  }

  private static long count(String table) {
    QueryResult result = (QueryResult) run("SELECT count(*) FROM sales." + table).get(0);
    return (Long) result.rows().get(0).get(0);
  }

  /** Neither in the catalog nor on disk: no metadata, no data file left behind. */
  private static void assertNoTable(String table) {
    QueryResult tables = (QueryResult) run("SHOW TABLES FROM sales").get(0);
    assertThat(tables.rows()).doesNotContain(List.of(table));
    Path dir = home.resolve("warehouse/sales/" + table);
    try (Stream<Path> files = Files.exists(dir) ? Files.walk(dir) : Stream.empty()) {
      assertThat(files.filter(Files::isRegularFile)).as("files under %s", dir).isEmpty();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot list " + dir, e);
    }
  }

  private static void withTable(String table, Consumer<Table> check) {
    Catalog catalog = Catalogs.open(config);
    try {
      check.accept(catalog.loadTable(TableIdentifier.of("sales", table)));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
