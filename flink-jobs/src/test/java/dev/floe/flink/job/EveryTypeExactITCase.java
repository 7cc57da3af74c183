package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.snapshot.Publish;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.cli.FloeMain;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.run.PublishMode;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.sql.ResultJson;
import dev.floe.flink.sql.ResultTable;
import dev.floe.flink.sql.SqlRunner;
import dev.floe.flink.sql.SqlScript;
import dev.floe.flink.sql.StatementResult;
import dev.floe.flink.testing.ExampleTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN rule 10, values exact or refused: a source written by Iceberg's own Parquet writer with
 * every type Flink can carry (timestamps to the microsecond, NaN and -0.0, pre-1970 and year-1
 * dates, decimal(38,s) extremes, uuid, fixed, binary, struct, list, map) is loaded by a run in
 * every mode and read back with Iceberg's generic reader value for value; each run's recorded
 * content hash equals the hash {@link TableContent} computes from the table, and a rerun is a
 * no-op. A {@code time} column, in a source or a target, at the top or nested, is refused before
 * anything is written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryTypeExactITCase {
  private static final Types.StructType POINT =
      Types.StructType.of(
          Types.NestedField.optional(101, "x", Types.LongType.get()),
          Types.NestedField.optional(102, "label", Types.StringType.get()),
          Types.NestedField.optional(103, "amount", Types.DecimalType.of(10, 2)));

  /** Everything Flink carries exactly. Field ids must match the targets' (created alike). */
  static final Schema EVERY_TYPE =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.required(2, "d", Types.DateType.get()),
              Types.NestedField.required(3, "ts", Types.TimestampType.withoutZone()),
              Types.NestedField.optional(4, "tz", Types.TimestampType.withZone()),
              Types.NestedField.optional(5, "b", Types.BooleanType.get()),
              Types.NestedField.optional(6, "i", Types.IntegerType.get()),
              Types.NestedField.optional(7, "f", Types.FloatType.get()),
              Types.NestedField.optional(8, "db", Types.DoubleType.get()),
              Types.NestedField.optional(9, "s", Types.StringType.get()),
              Types.NestedField.optional(10, "dec", Types.DecimalType.of(38, 10)),
              Types.NestedField.optional(11, "frac", Types.DecimalType.of(38, 38)),
              Types.NestedField.optional(12, "bin", Types.BinaryType.get()),
              Types.NestedField.optional(13, "fx", Types.FixedType.ofLength(3)),
              Types.NestedField.optional(14, "u", Types.UUIDType.get()),
              Types.NestedField.optional(15, "old", Types.DateType.get()),
              Types.NestedField.optional(16, "pt", POINT),
              Types.NestedField.optional(
                  17, "times", Types.ListType.ofOptional(104, Types.TimestampType.withZone())),
              Types.NestedField.optional(
                  18,
                  "weights",
                  Types.MapType.ofOptional(
                      105, 106, Types.StringType.get(), Types.DoubleType.get())),
              Types.NestedField.optional(
                  19,
                  "points",
                  Types.ListType.ofOptional(
                      107,
                      Types.StructType.of(
                          Types.NestedField.optional(108, "x", Types.LongType.get()),
                          Types.NestedField.optional(109, "label", Types.StringType.get()),
                          Types.NestedField.optional(
                              110, "amount", Types.DecimalType.of(10, 2)))))),
          Set.of(1));

  private static final String DAY = "2026-10-03";
  private static final String SELECT = "SELECT * FROM sales.src";

  @TempDir static Path home;
  private CatalogConfig config;
  private List<String> source;

  @BeforeAll
  void writeTheSourceWithIcebergsOwnWriter() {
    config = CatalogConfigLoader.embedded(home);
    Catalog catalog = Catalogs.open(config);
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      Table src =
          catalog.createTable(
              TableIdentifier.of("sales", "src"), EVERY_TYPE, PartitionSpec.unpartitioned());
      TableRows.append(src, rows(src.schema()).toArray(Record[]::new));
      source = canonical(src);
      assertThat(source).hasSize(4);
      PartitionSpec byDay = PartitionSpec.builderFor(EVERY_TYPE).identity("d").build();
      for (String name : List.of("t_overwrite", "t_audit", "t_merge", "t_absent", "t_swap")) {
        catalog.createTable(
            TableIdentifier.of("sales", name),
            EVERY_TYPE,
            name.equals("t_overwrite") || name.equals("t_audit")
                ? byDay
                : PartitionSpec.unpartitioned());
      }
      Schema withTime =
          new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "at", Types.TimeType.get()));
      Table timed =
          catalog.createTable(
              TableIdentifier.of("sales", "src_time"), withTime, PartitionSpec.unpartitioned());
      GenericRecord row = GenericRecord.create(withTime);
      row.setField("id", 1L);
      row.setField("at", LocalTime.parse("08:30:00.123456"));
      TableRows.append(timed, row);
      catalog.createTable(
          TableIdentifier.of("sales", "t_time"), withTime, PartitionSpec.unpartitioned());
      catalog.createTable(
          TableIdentifier.of("sales", "t_nested_time"),
          new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(
                  2,
                  "shift",
                  Types.StructType.of(
                      Types.NestedField.optional(3, "starts", Types.TimeType.get())))),
          PartitionSpec.unpartitioned());
      catalog.createTable(
          TableIdentifier.of("sales", "t_ids"),
          new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
          PartitionSpec.unpartitioned());
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Four rows: extremes, their opposites, a row of nulls, and empty values. */
  private static List<Record> rows(Schema schema) {
    List<Record> rows = new ArrayList<>();
    Record first = GenericRecord.create(schema);
    first.setField("id", 1L);
    first.setField("d", LocalDate.parse(DAY));
    first.setField("ts", LocalDateTime.parse("2026-10-03T23:59:59.999999"));
    first.setField("tz", OffsetDateTime.parse("2026-10-03T12:34:56.123456Z"));
    first.setField("b", true);
    first.setField("i", Integer.MIN_VALUE);
    first.setField("f", Float.NaN);
    first.setField("db", -0.0d);
    first.setField("s", "h\u00e9llo \u2603 \ud83d\ude00");
    first.setField("dec", new BigDecimal("9999999999999999999999999999.9999999999"));
    first.setField("frac", new BigDecimal("0.99999999999999999999999999999999999999"));
    first.setField("bin", ByteBuffer.wrap(new byte[] {0, -1, 127, -128}));
    first.setField("fx", new byte[] {1, 2, 3});
    first.setField("u", UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"));
    first.setField("old", LocalDate.parse("1969-12-31"));
    first.setField("pt", point(schema, Long.MAX_VALUE, "p\u00e9", "12.30"));
    first.setField(
        "times",
        List.of(
            OffsetDateTime.parse("1969-12-31T23:59:59.999999Z"),
            OffsetDateTime.parse("2026-10-03T00:00:00.000001Z")));
    Map<String, Double> weights = new LinkedHashMap<>();
    weights.put("nan", Double.NaN);
    weights.put("negative zero", -0.0d);
    weights.put("tiny", Double.MIN_VALUE);
    first.setField("weights", weights);
    first.setField(
        "points",
        List.of(
            point(schema, "points.element", 1L, "a", "-0.01"),
            point(schema, "points.element", 2L, "", "0.00")));
    rows.add(first);

    Record second = GenericRecord.create(schema);
    second.setField("id", 2L);
    second.setField("d", LocalDate.parse(DAY));
    second.setField("ts", LocalDateTime.parse("1969-12-31T23:59:59.000001"));
    second.setField("tz", OffsetDateTime.parse("1900-01-01T00:00:00.000001Z"));
    second.setField("b", false);
    second.setField("i", Integer.MAX_VALUE);
    second.setField("f", -0.0f);
    second.setField("db", Double.NaN);
    second.setField("s", "");
    second.setField("dec", new BigDecimal("-9999999999999999999999999999.9999999999"));
    second.setField("frac", new BigDecimal("-0.00000000000000000000000000000000000001"));
    second.setField("bin", ByteBuffer.wrap(new byte[0]));
    second.setField("fx", new byte[] {0, 0, 0});
    second.setField("u", UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"));
    second.setField("old", LocalDate.parse("0001-01-01"));
    second.setField("pt", point(schema, null, null, null));
    second.setField("times", List.of());
    second.setField("weights", Map.of());
    second.setField("points", new ArrayList<>(java.util.Collections.singletonList(null)));
    rows.add(second);

    Record third = GenericRecord.create(schema);
    third.setField("id", 3L);
    third.setField("d", LocalDate.parse(DAY));
    third.setField("ts", LocalDateTime.parse("2026-10-03T00:00:00"));
    third.setField("f", Float.NEGATIVE_INFINITY);
    third.setField("db", Double.MIN_VALUE);
    third.setField("dec", new BigDecimal("0E-10"));
    third.setField("frac", new BigDecimal("0E-38"));
    third.setField("old", LocalDate.parse("1582-10-04"));
    rows.add(third);

    Record fourth = GenericRecord.create(schema);
    fourth.setField("id", 4L);
    fourth.setField("d", LocalDate.parse(DAY));
    fourth.setField("ts", LocalDateTime.parse("2026-10-03T08:30:00.000500"));
    fourth.setField("u", UUID.fromString("00000000-0000-0000-0000-000000000000"));
    fourth.setField("f", Float.MIN_VALUE);
    fourth.setField("db", 0.1d);
    rows.add(fourth);
    return rows;
  }

  private static Record point(Schema schema, Long x, String label, String amount) {
    return point(schema, "pt", x, label, amount);
  }

  private static Record point(Schema schema, String at, Long x, String label, String amount) {
    GenericRecord point = GenericRecord.create(schema.findType(at).asStructType());
    point.setField("x", x);
    point.setField("label", label);
    point.setField("amount", amount == null ? null : new BigDecimal(amount));
    return point;
  }

  @Test
  void everyModeWritesEveryValueExactlyRecordsTheHashOfTheStoredRowsAndItsRerunIsANoOp() {
    String overwrite =
        "job: o\ntarget: sales.t_overwrite\nslice: {column: d}\nquery: |\n  "
            + SELECT
            + " WHERE d >= :slice_start AND d < :slice_end\n";
    String merge = "job: m\ntarget: sales.t_merge\nmode: merge\nordering: ts\nquery: " + SELECT;
    String absent = "job: a\ntarget: sales.t_absent\nmode: insert-if-absent\nquery: " + SELECT;
    String swap = "job: s\ntarget: sales.t_swap\nmode: swap\nquery: " + SELECT;
    for (String manifest : List.of(overwrite, merge, absent, swap)) {
      String slice = manifest.equals(overwrite) ? DAY : null;
      RunResult first = SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), slice));
      Table target = load(first.target());
      assertThat(canonical(target)).as(first.target()).containsExactlyElementsOf(source);
      assertThat(target.currentSnapshot().summary())
          .as(first.target())
          .containsEntry("floe.content-hash", TableContent.hash(target).encode());

      if (manifest.equals(overwrite)) {
        // The hash the writers recorded is the one a rerun compares with: equal, so a no-op.
        RunResult rerun = SliceJob.run(RunRequest.of(config, ExampleTables.job(manifest), slice));
        assertThat(rerun.outcome().status()).isEqualTo(CommitOutcome.Status.NO_OP);
      }
    }
  }

  @Test
  void anAuditedRunPublishesEveryValueExactlyAndARevertRestoresTheEmptyTable() {
    String audit =
        "job: w\ntarget: sales.t_audit\nslice: {column: d}\nquery: |\n  "
            + SELECT
            + " WHERE d >= :slice_start AND d < :slice_end\n";
    RunResult run =
        SliceJob.run(
            RunRequest.of(config, ExampleTables.job(audit), DAY)
                .withOptions(o -> o.publish(PublishMode.MANUAL)));
    Catalog catalog = Catalogs.open(config);
    try {
      Table table = Catalogs.loadTable(catalog, "sales.t_audit");
      assertThat(table.currentSnapshot()).isNull();

      Publish.of(table, "sales.t_audit").run(run.runId()).commit();
      table.refresh();
      assertThat(canonical(table)).containsExactlyElementsOf(source);
      assertThat(TableContent.hash(table).encode()).isEqualTo(run.outcome().contentHash());

      VerifyResult verified = Verify.run(RunRequest.of(config, ExampleTables.job(audit), DAY));
      assertThat(verified.reproducible()).isTrue();
      assertThat(verified.mainMatches()).isTrue();

      table.refresh();
      Revert.of(table, "sales.t_audit").run(run.runId()).commit();
      table.refresh();
      assertThat(TableContent.hash(table)).isEqualTo(ContentHash.empty());
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aTimeColumnInTheSourceIsRefusedBeforeAnythingIsWritten() {
    String job = "job: t\ntarget: sales.t_ids\nmode: swap\nquery: SELECT id FROM sales.src_time";

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(job), null)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot run t: column at of sales.src_time has type time")
        .hasMessageContaining("milliseconds")
        .hasMessageNotContaining("\n");
    assertThat(load("sales.t_ids").currentSnapshot()).isNull();
  }

  @Test
  void aTimeColumnInTheTargetAtTheTopOrNestedIsRefusedBeforeAnythingIsWritten() {
    String top =
        "job: t\ntarget: sales.t_time\nmode: swap\nquery: SELECT id, at FROM sales.src_time";
    String nested =
        "job: n\ntarget: sales.t_nested_time\nmode: swap\nquery: SELECT id, CAST(NULL AS"
            + " ROW<starts TIME>) AS shift FROM sales.t_ids";

    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(top), null)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot run t: column at of sales.t_time has type time");
    assertThatThrownBy(() -> SliceJob.run(RunRequest.of(config, ExampleTables.job(nested), null)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot run n: column shift.starts of sales.t_nested_time has type time");
    assertThat(load("sales.t_time").currentSnapshot()).isNull();
    assertThat(load("sales.t_nested_time").currentSnapshot()).isNull();
  }

  @Test
  void floeRunExitsTwoWithOneLineAndLeavesTheTargetsSnapshotAsItWas() throws Exception {
    long before = load("sales.src_time").currentSnapshot().snapshotId();
    Path manifest = Files.createTempDirectory("floe-types").resolve("copy_shifts.yaml");
    Files.writeString(
        manifest,
        "job: copy_shifts\ntarget: sales.src_time\nmode: swap\nquery: SELECT id, at FROM"
            + " sales.src_time\n");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        FloeMain.execute(
            new String[] {"run", manifest.toString(), "--home", home.toString()},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(exit).as(err.toString()).isEqualTo(2);
    assertThat(err.toString().strip())
        .startsWith("floe: Cannot run copy_shifts: column at of sales.src_time has type time")
        .doesNotContain("\n");
    assertThat(load("sales.src_time").currentSnapshot().snapshotId()).isEqualTo(before);
  }

  @Test
  void sqlPrintsUuidsDashedAndTimestampsToTheMicrosecondAndRefusesATimeColumn() {
    SqlRunner sql =
        new SqlRunner(
            FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(1), config), config);
    List<StatementResult> results =
        sql.run(
            SqlScript.fromCommandLine(
                "SELECT id, u, fx, ts, tz FROM sales.src WHERE id = 1 OR id = 4 ORDER BY id"));

    assertThat(ResultTable.render(results))
        .contains("00112233-4455-6677-8899-aabbccddeeff", "00000000-0000-0000-0000-000000000000")
        .contains("010203")
        .contains("2026-10-03 23:59:59.999999", "2026-10-03 12:34:56.123456+00")
        .contains("2026-10-03 08:30:00.000500");
    assertThat(ResultJson.render(results))
        .contains("\"u\" : \"00112233-4455-6677-8899-aabbccddeeff\"")
        .contains("\"type\" : \"UUID\"")
        .contains("\"ts\" : \"2026-10-03T23:59:59.999999\"");
    // A uuid is known by where its values come from, not by its name: renamed it is still a uuid,
    // computed from it (or a fixed renamed u) it is not.
    assertThat(
            ResultTable.render(
                sql.run(
                    SqlScript.fromCommandLine(
                        "SELECT u AS ident, CASE WHEN id = 1 THEN u END AS cut, fx AS u"
                            + " FROM sales.src WHERE id = 1"))))
        .contains("00112233-4455-6677-8899-aabbccddeeff")
        .contains("00112233445566778899aabbccddeeff")
        .contains("010203");
    assertThat(
            ResultTable.render(
                sql.run(
                    SqlScript.fromCommandLine(
                        "SELECT u FROM sales.src WHERE id = 1 UNION ALL"
                            + " SELECT u FROM sales.src WHERE id = 4"))))
        .contains("00112233-4455-6677-8899-aabbccddeeff", "00000000-0000-0000-0000-000000000000");
    assertThatThrownBy(
            () -> sql.run(SqlScript.fromCommandLine("SELECT id FROM sales.src_time WHERE id > 0")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot run SQL statement 1 (line 1 of ")
        .hasMessageContaining("column at of sales.src_time has type time");
    assertThatThrownBy(
            () ->
                sql.run(
                    SqlScript.fromCommandLine(
                        "INSERT INTO sales.t_time VALUES (1, TIME '08:30:00.123')")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column at of sales.t_time has type time");
    assertThat(load("sales.t_time").currentSnapshot()).isNull();
  }

  private Table load(String name) {
    Catalog catalog = Catalogs.open(config);
    try {
      return Catalogs.loadTable(catalog, name);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Every row as text that keeps every bit: NaN payloads, -0.0, scales, microseconds. */
  static List<String> canonical(Table table) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows.add(text(record));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  private static String text(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof StructLike struct) {
      StringJoiner fields = new StringJoiner(", ", "(", ")");
      for (int i = 0; i < struct.size(); i++) {
        fields.add(text(struct.get(i, Object.class)));
      }
      return fields.toString();
    }
    if (value instanceof List<?> list) {
      StringJoiner elements = new StringJoiner(", ", "[", "]");
      list.forEach(e -> elements.add(text(e)));
      return elements.toString();
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, String> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(text(k), text(v)));
      return sorted.toString();
    }
    if (value instanceof Float f) {
      return "float:" + Integer.toHexString(Float.floatToRawIntBits(f));
    }
    if (value instanceof Double d) {
      return "double:" + Long.toHexString(Double.doubleToRawLongBits(d));
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.unscaledValue() + "e-" + decimal.scale();
    }
    if (value instanceof byte[] bytes) {
      return "fixed:" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return "binary:" + HexFormat.of().formatHex(bytes);
    }
    return value.getClass().getSimpleName() + ":" + value;
  }
}
