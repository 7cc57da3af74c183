package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.flink.maintain.Compaction;
import dev.floe.flink.maintain.CompactionResult;
import dev.floe.flink.maintain.SliceCompaction;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import dev.floe.flink.testing.EqualityDeletes;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogDescriptor;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN rule 10 for string bytes: Iceberg's generic readers decode strings as UTF-8 and put U+FFFD
 * for malformed bytes, so Floe's writers refuse a string that is not UTF-8 (exit 3, nothing
 * committed), and a compaction refuses a slice whose files store such bytes (another writer put
 * them there) instead of replacing them with U+FFFD, while a U+FFFD the data holds compacts.
 */
class StringBytesITCase {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "s", Types.StringType.get()),
          Types.NestedField.required(3, "d", Types.DateType.get()));

  @TempDir Path home;
  private CatalogConfig config;
  private TableEnvironment sql;

  @BeforeEach
  void createTable() {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      catalog.createTable(
          TableIdentifier.of("sales", "t"),
          SCHEMA,
          PartitionSpec.builderFor(SCHEMA).identity("d").build());
    } finally {
      Catalogs.close(catalog);
    }
    sql = FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config);
  }

  @Test
  void aRunRefusesAStringThatIsNotUtf8AndWritesEveryWellFormedOneAsItIs() throws Exception {
    String valid =
        "job: v\ntarget: sales.t\nslice: {column: d}\nquery: |\n  SELECT CAST(id AS BIGINT) AS id,"
            + " FROM_BASE64(b) AS s, CAST(:slice_start AS DATE) AS d FROM (VALUES (1, 'w6k='),"
            + " (2, '8J+YgA=='), (3, '77+9'), (4, '')) AS v(id, b)\n";
    SliceJob.run(RunRequest.of(config, ExampleTables.job(valid), "2026-10-03"));
    assertThat(base64("2026-10-03")).containsExactly("w6k=", "8J+YgA==", "77+9", "");

    String invalid =
        "job: i\ntarget: sales.t\nslice: {column: d}\nquery: |\n  SELECT CAST(id AS BIGINT) AS id,"
            + " FROM_BASE64(b) AS s, CAST(:slice_start AS DATE) AS d FROM (VALUES (1, 'w6k='),"
            + " (2, '/w==')) AS v(id, b)\n";
    long head = load().currentSnapshot().snapshotId();

    assertThatThrownBy(
            () -> SliceJob.run(RunRequest.of(config, ExampleTables.job(invalid), "2026-10-04")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining(
            "Cannot write a string that is not UTF-8 into column s of floe.sales.t (bytes ff)");
    assertThat(load().currentSnapshot().snapshotId()).isEqualTo(head);
  }

  @Test
  void aRunRefusesAConstantThePlannerDecodesLossilyBeforeWriting() throws Exception {
    // A constant, not a column: the planner folds FROM_BASE64 into a Java String, U+FFFD for the
    // byte ff, which the writers could no longer tell from a real U+FFFD.
    String constant =
        "job: c\ntarget: sales.t\nslice: {column: d}\nquery: |\n  SELECT CAST(1 AS BIGINT) AS id,"
            + " FROM_BASE64('YWL/Yw==') AS s, CAST(:slice_start AS DATE) AS d\n";
    SliceJob.run(RunRequest.of(config, ExampleTables.job(validJob()), "2026-10-03"));
    long head = load().currentSnapshot().snapshotId();

    assertThatThrownBy(
            () -> SliceJob.run(RunRequest.of(config, ExampleTables.job(constant), "2026-10-04")))
        .isInstanceOf(dev.floe.catalog.error.InvalidInputException.class)
        .hasMessageStartingWith("Cannot run ")
        .hasMessageContaining("into 'ab\\uFFFDc'")
        .hasMessageContaining("replacing the bytes that are not UTF-8 with U+FFFD");
    assertThat(load().currentSnapshot().snapshotId()).isEqualTo(head);
  }

  private static String validJob() {
    return "job: v\ntarget: sales.t\nslice: {column: d}\nquery: |\n  SELECT CAST(1 AS BIGINT) AS id,"
        + " FROM_BASE64('YWJj') AS s, CAST(:slice_start AS DATE) AS d\n";
  }

  @Test
  void aCompactionLeavesASliceWhoseFilesStoreBytesThatAreNotUtf8AsItIsAndCompactsTheOthers()
      throws Exception {
    // Iceberg's own Flink sink, without Floe's catalog, stores the bytes it is given, 0xff
    // included, in two files per day.
    TableEnvironment iceberg = icebergWithoutFloe();
    for (String id : List.of("1", "2")) {
      // FROM_BASE64 on a column, not a literal: the planner would fold a literal into a Java
      // String, U+FFFD already.
      iceberg
          .executeSql(
              "INSERT INTO sales.t SELECT CAST(id AS BIGINT), FROM_BASE64(b), CAST(d AS DATE)"
                  + " FROM (VALUES ("
                  + id
                  + ", '/w==', '2026-10-03'), ("
                  + id
                  + "0, 'cGxhaW4=', '2026-10-04')) AS v(id, b, d)")
          .await();
    }

    CompactionResult result =
        Compaction.of(config, "sales.t").slices(List.of("2026-10-03", "2026-10-04")).commit();

    List<SliceCompaction> slices = result.slices();
    assertThat(slices)
        .extracting(SliceCompaction::status)
        .containsExactly(SliceCompaction.Status.FAILED, SliceCompaction.Status.COMPACTED);
    assertThat(slices.get(0).exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(slices.get(0).detail())
        .contains("column s of a row in")
        .contains("reads U+FFFD, and the file stores bytes that are not UTF-8");
    assertThat(base64("2026-10-03")).containsExactly("/w==", "/w==");
  }

  @Test
  void aCompactionRewritesAStoredUFffdCharacterAndKeepsItsBytes() throws Exception {
    for (String id : List.of("1", "2")) {
      sql.executeSql("INSERT INTO sales.t VALUES (" + id + ", 'caf\uFFFD', DATE '2026-10-03')")
          .await();
    }
    assertThat(base64("2026-10-03")).containsExactly("Y2Fm77+9", "Y2Fm77+9");

    CompactionResult result =
        Compaction.of(config, "sales.t").slices(List.of("2026-10-03")).commit();

    assertThat(result.slices())
        .extracting(SliceCompaction::status)
        .containsExactly(SliceCompaction.Status.COMPACTED);
    assertThat(base64("2026-10-03")).containsExactly("Y2Fm77+9", "Y2Fm77+9");
  }

  @Test
  void aRevertThatCannotTellAStoredUFffdFromBadBytesRefusesAndLeavesNoFileBehind()
      throws Exception {
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, "sales.t");
      table.updateProperties().set("write.format.default", "orc").commit();
      String job =
          "job: o\ntarget: sales.t\nparallelism: 1\nslice: {column: d}\nquery: |\n  SELECT CAST(id AS BIGINT)"
              + " AS id, s, CAST(:slice_start AS DATE) AS d FROM (VALUES (1, 'caf\uFFFD'), (2,"
              + " 'x')) AS v(id, s)\n";
      SliceJob.run(RunRequest.of(config, ExampleTables.job(job), "2026-10-03"));
      table.refresh();
      Record inDay = GenericRecord.create(SCHEMA);
      inDay.setField("d", LocalDate.parse("2026-10-03"));
      table.newRowDelta().addDeletes(EqualityDeletes.ofId(table, inDay, 2L)).commit();
      RunResult second =
          SliceJob.run(
              RunRequest.of(config, ExampleTables.job(job.replace("'x'", "'y'")), "2026-10-03"));
      table.refresh();
      Set<String> filesBefore = dataFiles(table);

      Table reverting = table;
      assertThatThrownBy(() -> Revert.of(reverting, "sales.t").run(second.runId()).commit())
          .isInstanceOf(CheckFailedException.class)
          .hasMessageContaining("reads U+FFFD, and its bytes cannot be read undecoded");
      assertThat(dataFiles(table)).isEqualTo(filesBefore);
    } finally {
      Catalogs.close(catalog);
    }
  }

  private static Set<String> dataFiles(Table table) throws IOException {
    try (Stream<Path> files = Files.walk(Path.of(URI.create(table.location() + "/data")))) {
      return files
          .filter(Files::isRegularFile)
          .map(Path::toString)
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void floeSqlRefusesAStringThatIsNotUtf8AndAnOrcTimestampOfTheSecondBefore1970() {
    SqlRunner runner = new SqlRunner(sql, config);
    assertThatThrownBy(
            () ->
                runner.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.t SELECT CAST(1 AS BIGINT), FROM_BASE64(b), DATE"
                            + " '2026-10-03' FROM (VALUES ('/w==')) AS v(b)")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageStartingWith("Cannot run SQL statement 1 (line 1 of ")
        .hasMessageContaining(
            "Cannot write a string that is not UTF-8 into column s of floe.sales.t (bytes ff)");
    assertThat(load().currentSnapshot()).isNull();

    runner.run(
        SqlScript.fromCommandLine(
            "CREATE TABLE sales.o (id BIGINT, ts TIMESTAMP(6)) WITH"
                + " ('write.format.default'='orc'); INSERT INTO sales.o VALUES (1, TIMESTAMP"
                + " '1969-12-31 23:59:58.500000')"));
    assertThatThrownBy(
            () ->
                runner.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.o VALUES (2, TIMESTAMP '1969-12-31 23:59:59.500000')")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining(
            "Cannot write 1969-12-31T23:59:59.500 into column ts of floe.sales.o: ORC cannot");
  }

  @Test
  void floeSqlChecksOrcTimestampsByTheFormatIcebergsSinkWritesHintsIncluded() throws Exception {
    SqlRunner runner = new SqlRunner(sql, config);
    runner.run(
        SqlScript.fromCommandLine(
            "CREATE TABLE sales.p (id BIGINT, ts TIMESTAMP(6)); CREATE TABLE sales.q (id BIGINT,"
                + " ts TIMESTAMP(6)) WITH ('write.format.default'='orc')"));

    assertThatThrownBy(
            () ->
                runner.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.p /*+ OPTIONS('write-format'='orc') */ VALUES (1,"
                            + " TIMESTAMP '1969-12-31 23:59:59.500000')")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("ORC cannot store a timestamp in the second before 1970");
    runner.run(
        SqlScript.fromCommandLine(
            "INSERT INTO sales.q /*+ OPTIONS('write-format'='parquet') */ VALUES (2, TIMESTAMP"
                + " '1969-12-31 23:59:59.500000')"));
    try (CloseableIterator<Row> rows =
        sql.executeSql("SELECT CAST(ts AS STRING) FROM sales.q").collect()) {
      assertThat(rows.next().getField(0)).isEqualTo("1969-12-31 23:59:59.500000");
    }
    // A hint on the table property changes nothing Iceberg's sink writes: still ORC, refused.
    assertThatThrownBy(
            () ->
                runner.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.q /*+ OPTIONS('write.format.default'='parquet') */"
                            + " VALUES (3, TIMESTAMP '1969-12-31 23:59:59.500000')")))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("ORC cannot store a timestamp in the second before 1970");
  }

  /** A table environment with Iceberg's Flink catalog as Iceberg documents it, no Floe in front. */
  private TableEnvironment icebergWithoutFloe() {
    TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    Map<String, String> options = new HashMap<>(Catalogs.openProperties(config));
    options.put("type", "iceberg");
    // The catalog's own name: a JDBC catalog keeps its tables under it.
    env.createCatalog(
        config.name(), CatalogDescriptor.of(config.name(), Configuration.fromMap(options)));
    env.useCatalog(config.name());
    return env;
  }

  private List<String> base64(String day) throws Exception {
    List<String> values = new ArrayList<>();
    try (CloseableIterator<Row> rows =
        sql.executeSql("SELECT TO_BASE64(s) FROM sales.t WHERE d = DATE '" + day + "' ORDER BY id")
            .collect()) {
      rows.forEachRemaining(r -> values.add((String) r.getField(0)));
    }
    return values;
  }

  private Table load() {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, "sales.t");
    } finally {
      Catalogs.close(catalog);
    }
  }
}
