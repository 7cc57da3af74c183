package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.floe.catalog.error.InvalidInputException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TableSpecParserTest {
  private static final String SOURCE = "tables/fact_orders.yaml";

  private static final String FACT_ORDERS =
      """
      table: sales.fact_orders
      schema:
        - {name: order_id,    type: long, required: true}
        - {name: customer_id, type: long}
        - {name: amount,      type: "decimal(10,2)", doc: "order total"}
        - {name: order_date,  type: date, required: true}
      partition: [order_date]
      key: [order_id]
      late_data: {window: P3D, after_window: reopen}
      retention: {keep_last: 20, max_age: P7D}
      properties: {write.parquet.compression-codec: zstd, commit.retry.num-retries: 4}
      """;

  @Test
  void parsesTheDocumentedExample() {
    TableSpec spec = TableSpecParser.parse(SOURCE, FACT_ORDERS);

    assertThat(spec.table()).isEqualTo("sales.fact_orders");
    assertThat(spec.source()).isEqualTo(SOURCE);
    assertThat(spec.columns())
        .containsExactly(
            new ColumnSpec("order_id", Types.LongType.get(), true, Optional.empty()),
            new ColumnSpec("customer_id", Types.LongType.get(), false, Optional.empty()),
            new ColumnSpec(
                "amount", Types.DecimalType.of(10, 2), false, Optional.of("order total")),
            new ColumnSpec("order_date", Types.DateType.get(), true, Optional.empty()));
    assertThat(spec.partitioning())
        .containsExactly(PartitionFieldSpec.of(PartitionTransform.IDENTITY, "order_date"));
    assertThat(spec.key()).containsExactly("order_id");
    assertThat(spec.lateData())
        .contains(new LateDataSpec(Duration.ofDays(3), LateDataSpec.AfterWindow.REOPEN));
    assertThat(spec.retention()).contains(new RetentionSpec(20, Duration.ofDays(7)));
    assertThat(spec.properties())
        .containsExactly(
            entry("write.parquet.compression-codec", "zstd"),
            entry("commit.retry.num-retries", "4"));
  }

  @Test
  void leavesOptionalSectionsEmpty() {
    TableSpec spec =
        TableSpecParser.parse(SOURCE, "table: a.b\nschema:\n  - {name: id, type: long}\n");

    assertThat(spec.partitioning()).isEmpty();
    assertThat(spec.key()).isEmpty();
    assertThat(spec.lateData()).isEmpty();
    assertThat(spec.retention()).isEmpty();
    assertThat(spec.properties()).isEmpty();
  }

  @Test
  void theTableNameIsReadAsTheFileSpellsIt() {
    TableSpec spec =
        TableSpecParser.parse(SOURCE, "table: 2024.10\nschema:\n  - {name: id, type: long}\n");

    assertThat(spec.table()).isEqualTo("2024.10"); // YAML 1.1 reads 2024.1
  }

  @Test
  void lateDataReportsAfterTheWindowUnlessToldToReopen() {
    TableSpec spec =
        TableSpecParser.parse(
            SOURCE, "table: a.b\nschema: [{name: id, type: long}]\nlate_data: {window: PT6H}\n");

    assertThat(spec.lateData())
        .contains(new LateDataSpec(Duration.ofHours(6), LateDataSpec.AfterWindow.REPORT));
  }

  @Test
  void parsesEveryPartitionTransform() {
    TableSpec spec =
        TableSpecParser.parse(
            SOURCE,
            """
            table: a.every_transform
            schema:
              - {name: d,    type: date}
              - {name: ts,   type: timestamp}
              - {name: tz,   type: timestamptz}
              - {name: id,   type: long}
              - {name: name, type: string}
              - {name: kind, type: string}
            partition: [kind, "year(d)", "month(tz)", "day(ts)", "bucket(16, id)", "truncate(4, name)"]
            """);

    assertThat(spec.partitioning())
        .containsExactly(
            PartitionFieldSpec.of(PartitionTransform.IDENTITY, "kind"),
            PartitionFieldSpec.of(PartitionTransform.YEAR, "d"),
            PartitionFieldSpec.of(PartitionTransform.MONTH, "tz"),
            PartitionFieldSpec.of(PartitionTransform.DAY, "ts"),
            PartitionFieldSpec.of(PartitionTransform.BUCKET, "id", 16),
            PartitionFieldSpec.of(PartitionTransform.TRUNCATE, "name", 4));
    assertThat(spec.describePartitioning())
        .containsExactly(
            "kind", "year(d)", "month(tz)", "day(ts)", "bucket(16, id)", "truncate(4, name)");

    TableSpec hourly =
        TableSpecParser.parse(
            SOURCE, "table: a.b\nschema: [{name: ts, type: timestamptz}]\npartition: hour(ts)\n");
    assertThat(hourly.partitioning())
        .containsExactly(PartitionFieldSpec.of(PartitionTransform.HOUR, "ts"));
  }

  @Test
  void parsesEveryColumnType() {
    TableSpec spec =
        TableSpecParser.parse(
            SOURCE,
            """
            table: a.every_type
            schema:
              - {name: c1,  type: boolean}
              - {name: c2,  type: int}
              - {name: c3,  type: long}
              - {name: c4,  type: float}
              - {name: c5,  type: double}
              - {name: c6,  type: date}
              - {name: c7,  type: time}
              - {name: c8,  type: timestamp}
              - {name: c9,  type: timestamptz}
              - {name: c10, type: string}
              - {name: c11, type: uuid}
              - {name: c12, type: binary}
              - {name: c13, type: "fixed(16)"}
              - {name: c14, type: "decimal(38,10)"}
            """);

    assertThat(spec.columns().stream().map(c -> ColumnTypes.format(c.type())))
        .containsExactly(
            "boolean",
            "int",
            "long",
            "float",
            "double",
            "date",
            "time",
            "timestamp",
            "timestamptz",
            "string",
            "uuid",
            "binary",
            "fixed(16)",
            "decimal(38,10)");
  }

  @Test
  void buildsTheIcebergSchemaWithKeyAsIdentifierFieldsAndTheBoundPartitionSpec() {
    TableSpec spec = TableSpecParser.parse(SOURCE, FACT_ORDERS);

    Schema schema = spec.schema();
    assertThat(schema.columns())
        .containsExactly(
            Types.NestedField.required(1, "order_id", Types.LongType.get()),
            Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
            Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2), "order total"),
            Types.NestedField.required(4, "order_date", Types.DateType.get()));
    assertThat(schema.identifierFieldIds()).containsExactly(1);

    PartitionSpec partitionSpec = spec.partitionSpec();
    assertThat(partitionSpec.fields()).hasSize(1);
    assertThat(partitionSpec.fields().get(0).sourceId()).isEqualTo(4);
    assertThat(partitionSpec.fields().get(0).transform().isIdentity()).isTrue();
  }

  @Test
  void rejectsAnUnknownTopLevelKeyNamingTheKeyAndTheFile() {
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, FACT_ORDERS + "partitions: [x]\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read tables/fact_orders.yaml: unknown key 'partitions'");
  }

  @Test
  void rejectsAnUnknownKeyInsideAColumnNamingItsPath() {
    String text = "table: a.b\nschema:\n  - {name: id, type: long, nullable: false}\n";

    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'schema[0]': unknown key 'nullable'");
  }

  @Test
  void rejectsUnknownKeysInLateDataAndRetention() {
    assertThatThrownBy(() -> parseWith("late_data: {window: P1D, grace: P1D}"))
        .hasMessageContaining("at 'late_data': unknown key 'grace'");
    assertThatThrownBy(() -> parseWith("retention: {keep: 3}"))
        .hasMessageContaining("at 'retention': unknown key 'keep'");
  }

  @Test
  void rejectsABadTypeShowingTheValueAndTheAcceptedTypes() {
    String text = "table: a.b\nschema:\n  - {name: id, type: long}\n  - {name: n, type: bigint}\n";

    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, text))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'schema[1].type': unknown type 'bigint'")
        .hasMessageContaining("decimal(P,S)");
  }

  @Test
  void rejectsDuplicateColumnNames() {
    String text = "table: a.b\nschema:\n  - {name: id, type: long}\n  - {name: id, type: int}\n";

    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, text))
        .hasMessage(
            "Cannot read tables/fact_orders.yaml at 'schema[1].name': duplicate column 'id'"
                + " (already declared at schema[0]; names differing only in case collide)");
    String cased = "table: a.b\nschema:\n  - {name: id, type: long}\n  - {name: Id, type: int}\n";
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, cased))
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'schema[1].name': duplicate column 'Id'");
  }

  @Test
  void anIcebergPropertyValueIcebergCannotParseIsRefusedNamingTheKey() {
    String base = "table: a.b\nschema:\n  - {name: id, type: long}\n";

    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, base + "properties: {write.target-file-size-bytes: 128MB}\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'properties.write.target-file-size-bytes'")
        .hasMessageContaining("expected a whole number")
        .hasMessageContaining("'128MB'");
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, base + "properties: {write.parquet.compression-codec: zstdd}\n"))
        .hasMessageContaining("expected zstd, gzip, snappy, lz4_raw or uncompressed");
    assertThat(
            TableSpecParser.parse(
                    SOURCE,
                    base
                        + "properties: {write.target-file-size-bytes: 134217728,"
                        + " write.parquet.compression-codec: GZIP, owner.team: x}\n")
                .properties())
        .containsEntry("write.target-file-size-bytes", "134217728");
  }

  @Test
  void propertyValuesIcebergReadsDifferentlyOrCannotWriteWithAreRefused() {
    String base = "table: a.b\nschema:\n  - {name: id, type: long}\n";
    java.util.function.Function<String, TableSpec> parse =
        props -> TableSpecParser.parse(SOURCE, base + "properties: {" + props + "}\n");

    assertThatThrownBy(() -> parse.apply("write.parquet.page-size-bytes: 3000000000"))
        .hasMessageContaining("expected a whole number of bytes from 1 to 2147483647");
    assertThatThrownBy(() -> parse.apply("write.parquet.dict-size-bytes: -5"))
        .hasMessageContaining("expected a whole number of bytes from 1 to 2147483647");
    assertThatThrownBy(() -> parse.apply("commit.retry.num-retries: 3000000000"))
        .hasMessageContaining("expected a whole number up to 2147483647");
    assertThatThrownBy(() -> parse.apply("write.target-file-size-bytes: 0"))
        .hasMessageContaining("expected a whole number of bytes above 0");
    assertThatThrownBy(() -> parse.apply("write.parquet.compression-codec: brotli"))
        .hasMessageContaining("expected zstd, gzip, snappy, lz4_raw or uncompressed");
    // Every number or boolean property Iceberg declares, not only the common ones.
    assertThatThrownBy(() -> parse.apply("write.summary.partition-limit: x"))
        .hasMessageContaining("'properties.write.summary.partition-limit'")
        .hasMessageContaining("expected a whole number up to 2147483647");
    assertThatThrownBy(() -> parse.apply("commit.status-check.min-wait-ms: soon"))
        .hasMessageContaining("expected a whole number for")
        .hasMessageContaining("got 'soon'");
    assertThatThrownBy(() -> parse.apply("write.orc.bloom.filter.fpp: low"))
        .hasMessageContaining("expected a number for")
        .hasMessageContaining("got 'low'");
    assertThatThrownBy(() -> parse.apply("write.metadata.compression-codec: zstd"))
        .hasMessageContaining("expected none or gzip for Iceberg's write.metadata.compression");
    assertThatThrownBy(() -> parse.apply("write.delete.parquet.compression-codec: zip"))
        .hasMessageContaining("expected zstd, gzip, snappy, lz4_raw or uncompressed");
    // Booleans Iceberg never fails on, beyond the three whose opposite reading matters.
    assertThat(parse.apply("write.object-storage.enabled: 'yes'").properties())
        .containsEntry("write.object-storage.enabled", "yes");
    assertThat(
            parse
                .apply(
                    "write.summary.partition-limit: 10, write.metadata.compression-codec: gzip,"
                        + " write.orc.bloom.filter.fpp: 0.02")
                .properties())
        .containsEntry("write.summary.partition-limit", "10")
        .containsEntry("write.metadata.compression-codec", "gzip")
        .containsEntry("write.orc.bloom.filter.fpp", "0.02");
    assertThatThrownBy(() -> parse.apply("'owner.a,owner.b': x"))
        .hasMessageContaining("expected a property name without ','");
    assertThatThrownBy(() -> parse.apply("floe.spec-properties: owner.z"))
        .hasMessageContaining("written by `floe tables apply` itself");
    // 010 as Iceberg reads it (10), not as YAML 1.1 does (8).
    assertThat(parse.apply("commit.retry.num-retries: 010").properties())
        .containsEntry("commit.retry.num-retries", "010");
  }

  @Test
  void namesDocsAndPropertiesAreKeptAsTheFileSpellsThem() {
    String text =
        "table: a.b\nschema:\n  - {name: on, type: boolean}\n"
            + "  - {name: no, type: string, doc: 0755}\n"
            + "  - {name: 010, type: int, required: true}\n"
            + "key: [010]\n"
            + "properties: {owner.cost-center: 007, owner.flag: yes,"
            + " write.target-file-size-bytes: 134_217_728,"
            + " write.metadata.delete-after-commit.enabled: yes}\n";

    TableSpec spec = TableSpecParser.parse(SOURCE, text);

    assertThat(spec.columns()).extracting(ColumnSpec::name).containsExactly("on", "no", "010");
    assertThat(spec.columns().get(1).doc()).contains("0755");
    assertThat(spec.key()).containsExactly("010");
    // Iceberg's own properties as YAML reads them: the spellings Iceberg parses.
    assertThat(spec.properties())
        .containsEntry("owner.cost-center", "007")
        .containsEntry("owner.flag", "yes")
        .containsEntry("write.target-file-size-bytes", "134217728")
        .containsEntry("write.metadata.delete-after-commit.enabled", "true");
  }

  @Test
  void rejectsAPartitionOnAnUnknownColumn() {
    assertThatThrownBy(() -> parseWith("partition: [\"day(created_at)\"]"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'partition[0]': unknown column 'created_at'"
                + " in partition field 'day(created_at)'");
  }

  @Test
  void rejectsATransformThatDoesNotApplyToTheColumnType() {
    assertThatThrownBy(() -> parseWith("partition: [\"day(amount)\"]"))
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'partition[0]': day(amount) does not apply to"
                + " column amount of type decimal(10,2) (day works on date, timestamp,"
                + " timestamptz)");
    assertThatThrownBy(() -> parseWith("partition: [\"hour(order_date)\"]"))
        .hasMessageContaining("hour(order_date) does not apply to column order_date of type date");
    assertThatThrownBy(() -> parseWith("partition: [\"truncate(4, order_date)\"]"))
        .hasMessageContaining("truncate(4, order_date) does not apply");
  }

  @Test
  void rejectsUnknownTransformsBadParametersAndUnquotedCommas() {
    assertThatThrownBy(() -> parseWith("partition: [\"week(order_date)\"]"))
        .hasMessageContaining("unknown partition transform 'week' in 'week(order_date)'");
    assertThatThrownBy(() -> parseWith("partition: [\"bucket(order_id)\"]"))
        .hasMessageContaining("expected bucket(N, column), got 'bucket(order_id)'");
    assertThatThrownBy(() -> parseWith("partition: [\"bucket(0, order_id)\"]"))
        .hasMessageContaining("expected a positive bucket count in 'bucket(0, order_id)'");
    assertThatThrownBy(() -> parseWith("partition: [bucket(16, order_id)]"))
        .hasMessageContaining("cannot parse partition field 'bucket(16'")
        .hasMessageContaining("quote");
  }

  @Test
  void rejectsDuplicateAndRedundantPartitionFields() {
    assertThatThrownBy(() -> parseWith("partition: [order_date, order_date]"))
        .hasMessageContaining("at 'partition[1]': duplicate partition field 'order_date'");
    String redundant =
        "table: a.b\nschema: [{name: ts, type: timestamp}]\npartition: [\"day(ts)\", \"hour(ts)\"]\n";
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, redundant))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read tables/fact_orders.yaml at 'partition': ")
        .hasMessageContaining("redundant");
  }

  @Test
  void rejectsAKeyColumnThatIsMissingOptionalOrFloatingPoint() {
    assertThatThrownBy(() -> parseWith("key: [line_id]"))
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'key[0]': unknown key column 'line_id'");
    assertThatThrownBy(() -> parseWith("key: [customer_id]"))
        .hasMessageContaining("at 'key[0]': key column 'customer_id' must be required");
    String floating = "table: a.b\nschema: [{name: x, type: double, required: true}]\nkey: [x]\n";
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, floating))
        .hasMessageContaining("key column 'x' cannot be double");
  }

  @Test
  void rejectsBadDurationsShowingTheValue() {
    assertThatThrownBy(() -> parseWith("late_data: {window: 3 days}"))
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'late_data.window': invalid ISO-8601"
                + " duration '3 days'");
    assertThatThrownBy(() -> parseWith("retention: {max_age: P1M}"))
        .hasMessageContaining("at 'retention.max_age': invalid ISO-8601 duration 'P1M'");
    assertThatThrownBy(() -> parseWith("late_data: {window: PT0S}"))
        .hasMessageContaining("expected a positive duration, got 'PT0S'");
    // Accepted, it crashed `floe late plan` and `floe report` ("Instant exceeds ...").
    assertThatThrownBy(() -> parseWith("late_data: {window: P999999999999D}"))
        .hasMessageContaining(
            "at 'late_data.window': expected at most P36500D (100 years), got 'P999999999999D'");
    assertThat(
            TableSpecParser.parse(
                    SOURCE,
                    withoutLateDataAndRetention()
                        + "\nlate_data: {window: P36500D}\nretention: {max_age: P36500D}\n")
                .lateData()
                .orElseThrow()
                .window())
        .isEqualTo(java.time.Duration.ofDays(36_500));
  }

  @Test
  void aMaxAgeShorterThanTheLateDataWindowIsRefusedSinceExpiryWouldHideOpenSlices() {
    String spec = withoutLateDataAndRetention();

    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE,
                    spec
                        + "\nlate_data: {window: P30D}\nretention: {keep_last: 1, max_age:"
                        + " P7D}\n"))
        .hasMessageStartingWith(
            "Cannot read tables/fact_orders.yaml at 'retention.max_age': max_age P7D is shorter"
                + " than late_data.window P30D");
    assertThat(
            TableSpecParser.parse(
                    SOURCE, spec + "\nlate_data: {window: P7D}\nretention: {max_age: P7D}\n")
                .retention())
        .isPresent();
    assertThat(
            TableSpecParser.parse(
                    SOURCE, spec + "\nlate_data: {window: P30D}\nretention: {keep_last: 5}\n")
                .retention())
        .isPresent();
  }

  @Test
  void rejectsBadLateDataAndRetentionValues() {
    assertThatThrownBy(() -> parseWith("late_data: {window: P1D, after_window: drop}"))
        .hasMessageContaining("at 'late_data.after_window': unknown after_window 'drop'");
    assertThatThrownBy(() -> parseWith("retention: {keep_last: 0}"))
        .hasMessageContaining("at 'retention.keep_last': expected a positive number");
    assertThatThrownBy(() -> parseWith("retention: {}"))
        .hasMessageContaining("at 'retention': expected keep_last, max_age or both");
  }

  @Test
  void rejectsABadTableNameAndReservedProperties() {
    assertThatThrownBy(
            () -> TableSpecParser.parse(SOURCE, "table: orders\nschema: [{name: id, type: int}]"))
        .hasMessage(
            "Cannot read tables/fact_orders.yaml at 'table': expected <namespace>.<table>,"
                + " e.g. sales.fact_orders, got 'orders'");
    assertThatThrownBy(() -> parseWith("properties: {format-version: 3}"))
        .hasMessageContaining("at 'properties.format-version': property 'format-version' is");
  }

  @Test
  void refusesTableNamesWithAnEmptyLevelSpacesOrControlCharacters() {
    // sales..orders was created beside sales.orders, in the same directory.
    assertThatThrownBy(() -> parseWith("table: \"sales..orders\""))
        .hasMessage(
            "Cannot read tables/fact_orders.yaml at 'table': cannot create table 'sales..orders':"
                + " a level of the name is empty");
    assertThatThrownBy(() -> parseWith("table: \" sales.orders\""))
        .hasMessageContaining("cannot create table ' sales.orders': ' sales' has spaces around it");
    // A line break printed "Applied:\n  drop table s.other" as lines of the apply's output.
    assertThatThrownBy(() -> parseWith("table: \"s.fact\\nApplied:\""))
        .hasMessageContaining(
            "cannot create table 's.fact\\nApplied:': 'fact\\nApplied:' holds a control"
                + " or invisible character");
    // A no-break space or a zero-width space made a second table that looks like the first.
    assertThatThrownBy(() -> parseWith("table: \"sales.orders\\u00a0\""))
        .hasMessageContaining("'orders\u00a0' has spaces around it");
    assertThatThrownBy(() -> parseWith("table: \"sales.ord\\u200bers\""))
        .hasMessageContaining("'ord\u200bers' holds a control or invisible character (U+200B)");
    // The joiners Persian and Indic spelling need are letters of a name.
    assertThat(
            parseWith("table: \"sales.\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645\"").table())
        .endsWith("\u200c\u062e\u0648\u0627\u0647\u0645");
    assertThat(parseWith("table: \"a.b.Order Facts é\"").table()).isEqualTo("a.b.Order Facts é");
    assertThatThrownBy(() -> parseWith("table: \"sales.orders=v2\""))
        .hasMessageContaining(
            "cannot create table 'sales.orders=v2': 'orders=v2' holds ',', '=', '[' or ']'");
    // 300 letters: tables apply failed (exit 1) with "Failed to create file" after creating the
    // specs before it.
    assertThatThrownBy(() -> parseWith("table: s." + "t".repeat(300)))
        .hasMessageContaining("is 300 bytes long, more than 200: a file system keeps a name of");
    assertThat(parseWith("table: s." + "é".repeat(100)).table()).endsWith("é");
  }

  @Test
  void refusesColumnNamesFlinkOrFloesColumnListsWouldMisread() {
    String star = "table: s.t\nschema: [{name: id, type: long}, {name: \"*\", type: string}]\n";
    // floe run failed with "Ambiguous column name: id" (exit 1): Flink expanded '*'.
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, star))
        .hasMessage(
            "Cannot read tables/fact_orders.yaml at 'schema[1].name': cannot name a column '*':"
                + " '*' reads as every column in Flink's SQL");
    String comma = "table: s.t\nschema: [{name: \"x,y\", type: long}]\n";
    // zorder_columns: [id, "x,y"] was stored as id,x,y and compaction refused column x.
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, comma))
        .hasMessageContaining("cannot name a column 'x,y': a ',' breaks the comma-separated");
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, "table: s.t\nschema: [{name: \"id\\t\", type: long}]"))
        .hasMessageContaining("cannot name a column 'id\\t': has spaces around it");
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, "table: s.t\nschema: [{name: \"i\\u0007d\", type: long}]"))
        .hasMessageContaining(
            "cannot name a column 'i\\u0007d': holds a control or invisible character (U+0007)");
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, "table: s.t\nschema: [{name: \"amount\\ufeff\", type: long}]"))
        .hasMessageContaining("holds a control or invisible character");
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE, "table: s.t\nschema: [{name: \"\\u00a0id\", type: long}]"))
        .hasMessageContaining("has spaces around it");
    assertThat(
            TableSpecParser.parse(
                    SOURCE, "table: s.t\nschema: [{name: \"Order Date\", type: date}]")
                .columns())
        .hasSize(1);
  }

  @Test
  void rejectsPropertyNamesIcebergWouldKeepAsKeysOfTheirOwn() {
    // The keys floe.spec-properties lists are read back trimmed: " owner" would be taken for
    // an "owner" someone else set, and removed by the apply that drops it from the spec.
    assertThatThrownBy(() -> parseWith("properties: {\" owner\": a}"))
        .hasMessageContaining(
            "at 'properties. owner': property ' owner' has spaces or control characters around"
                + " its name: Iceberg would keep it as a property of its own, which nothing reads;"
                + " write 'owner'");
    assertThatThrownBy(() -> parseWith("properties: {\"\\x01owner\": a}"))
        .hasMessageContaining("has spaces or control characters around its name");
    assertThatThrownBy(() -> parseWith("properties: {FLOE.sealed-through: x}"))
        .hasMessageContaining(
            "property 'FLOE.sealed-through' lies under floe., which Floe keeps for its own keys");
    assertThatThrownBy(() -> parseWith("properties: {floe.custom: x}"))
        .hasMessageContaining("property 'floe.custom' lies under floe.");
    assertThatThrownBy(() -> parseWith("properties: {\"\": x}"))
        .hasMessageContaining("expected a property name, got ''");
    assertThatThrownBy(() -> parseWith("properties: {UUID: x}"))
        .hasMessageContaining(
            "property 'UUID' is Iceberg's reserved uuid in another case: Iceberg would keep it as"
                + " a property of its own and change nothing");
  }

  @Test
  void rejectsAnIcebergKeyOrKeyPrefixInAnotherCaseWhichIcebergWouldNeverRead() {
    assertThatThrownBy(() -> parseWith("properties: {GC.enabled: \"false\"}"))
        .hasMessageContaining(
            "property 'GC.enabled' is Iceberg's gc.enabled in another case: Iceberg reads only"
                + " 'gc.enabled', so it would keep this one as a property of its own, which"
                + " nothing reads; write 'gc.enabled'");
    assertThatThrownBy(() -> parseWith("properties: {Write.Parquet.Compression-Codec: snappy}"))
        .hasMessageContaining("write 'write.parquet.compression-codec'");
    assertThatThrownBy(() -> parseWith("properties: {Write.Metadata.Metrics.Column.id: full}"))
        .hasMessageContaining(
            "is Iceberg's write.metadata.metrics.column.... in another case: Iceberg reads only"
                + " 'write.metadata.metrics.column.id'");
    // Not Iceberg's: kept as written, as any property of the user's own.
    assertThat(parseWith("properties: {Owner.Team: data, None: x}").properties())
        .containsEntry("Owner.Team", "data")
        .containsEntry("None", "x");
  }

  @Test
  void rejectsAMissingOrEmptySchema() {
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, "table: a.b\n"))
        .hasMessage("Cannot read tables/fact_orders.yaml: missing required key 'schema'");
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, "table: a.b\nschema: []\n"))
        .hasMessage(
            "Cannot read tables/fact_orders.yaml at 'schema': expected at least one column");
  }

  /** The documented example with the top-level section of {@code section} replaced by it. */
  private static String withoutLateDataAndRetention() {
    return FACT_ORDERS
        .lines()
        .filter(line -> !line.startsWith("late_data:") && !line.startsWith("retention:"))
        .collect(java.util.stream.Collectors.joining("\n"));
  }

  private static TableSpec parseWith(String section) {
    String key = section.substring(0, section.indexOf(':'));
    List<String> kept = FACT_ORDERS.lines().filter(line -> !line.startsWith(key + ":")).toList();
    return TableSpecParser.parse(SOURCE, String.join("\n", kept) + "\n" + section + "\n");
  }
}
