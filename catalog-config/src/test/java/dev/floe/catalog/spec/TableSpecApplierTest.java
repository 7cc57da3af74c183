package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Applies specs to a real embedded catalog (Iceberg JdbcCatalog on SQLite in a temp dir). */
class TableSpecApplierTest {
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
      properties: {write.metadata.previous-versions-max: 50}
      """;

  @TempDir Path home;
  private Catalog catalog;

  @BeforeEach
  void openCatalog() {
    catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
  }

  @AfterEach
  void closeCatalog() throws IOException {
    if (catalog instanceof Closeable closeable) {
      closeable.close();
    }
  }

  @Test
  void createsTheNamespaceAndTheTableAsDeclared() {
    ApplyPlan plan = applier(FACT_ORDERS).commit();

    assertThat(plan.describe())
        .containsExactly(
            "create namespace sales",
            "create table sales.fact_orders (4 columns, partitioned by order_date, key order_id,"
                + " format v2)");
    assertThat(((SupportsNamespaces) catalog).namespaceExists(Namespace.of("sales"))).isTrue();
    Table table = load("sales.fact_orders");
    assertThat(table.schema().columns())
        .containsExactly(
            Types.NestedField.required(1, "order_id", Types.LongType.get()),
            Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
            Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2), "order total"),
            Types.NestedField.required(4, "order_date", Types.DateType.get()));
    assertThat(table.schema().identifierFieldNames()).containsExactly("order_id");
    assertThat(table.spec().fields()).hasSize(1);
    PartitionField partition = table.spec().fields().get(0);
    assertThat(partition.sourceId()).isEqualTo(4);
    assertThat(partition.transform().isIdentity()).isTrue();
    assertThat(table.properties()).containsEntry("write.metadata.previous-versions-max", "50");
    assertThat(((HasTableOperations) table).operations().current().formatVersion()).isEqualTo(2);
    assertThat(table.currentSnapshot()).isNull();
  }

  @Test
  void applyingTheSameSpecTwiceChangesNothing() {
    applier(FACT_ORDERS).commit();
    Table table = load("sales.fact_orders");
    TableRows.append(
        table,
        TableRows.row(table, Map.of("order_id", 1L, "order_date", LocalDate.of(2026, 10, 3))));
    String metadata = metadataLocation("sales.fact_orders");
    long snapshotId = load("sales.fact_orders").currentSnapshot().snapshotId();

    ApplyPlan dryRun = applier(FACT_ORDERS).apply();
    ApplyPlan second = applier(FACT_ORDERS).commit();

    assertThat(dryRun.isEmpty()).isTrue();
    assertThat(second.isEmpty()).isTrue();
    assertThat(second.tables()).extracting(TablePlan::table).containsExactly("sales.fact_orders");
    assertThat(metadataLocation("sales.fact_orders")).isEqualTo(metadata);
    assertThat(load("sales.fact_orders").currentSnapshot().snapshotId()).isEqualTo(snapshotId);
  }

  @Test
  void applyingASpecWithEveryTypeAndTransformTwiceChangesNothing() {
    String spec =
        """
        table: lake.raw.every_kind
        schema:
          - {name: id,   type: long, required: true, doc: "row id"}
          - {name: flag, type: boolean}
          - {name: n,    type: int}
          - {name: f,    type: float}
          - {name: x,    type: double}
          - {name: d,    type: date}
          - {name: t,    type: time}
          - {name: ts,   type: timestamp}
          - {name: tz,   type: timestamptz}
          - {name: name, type: string}
          - {name: u,    type: uuid}
          - {name: b,    type: binary}
          - {name: fx,   type: "fixed(16)"}
          - {name: amt,  type: "decimal(38,10)"}
        partition: [flag, "year(d)", "month(tz)", "day(ts)", "bucket(16, id)", "truncate(4, name)"]
        key: [id]
        properties: {write.parquet.compression-codec: snappy, commit.retry.num-retries: 7}
        """;
    assertThat(applier(spec).commit().describe())
        .containsExactly(
            "create namespace lake",
            "create namespace lake.raw",
            "create table lake.raw.every_kind (14 columns, partitioned by flag, year(d), month(tz),"
                + " day(ts), bucket(16, id), truncate(4, name), key id, format v2)");
    String metadata = metadataLocation("lake.raw.every_kind");

    assertThat(applier(spec).commit().isEmpty()).isTrue();
    assertThat(metadataLocation("lake.raw.every_kind")).isEqualTo(metadata);
  }

  @Test
  void createsANewNamespaceOnceForAllItsTables() {
    ApplyPlan plan = applier(simple("sales.a"), simple("sales.b")).commit();

    assertThat(plan.changes())
        .extracting(TableChange::kind)
        .containsExactly("create-namespace", "create-table", "create-table");
    assertThat(catalog.tableExists(TableIdentifier.parse("sales.a"))).isTrue();
    assertThat(catalog.tableExists(TableIdentifier.parse("sales.b"))).isTrue();
  }

  @Test
  void addsAnOptionalColumnKeepingExistingFieldIds() {
    applier(FACT_ORDERS).commit();
    String withDiscount =
        FACT_ORDERS.replace(
            "partition:",
            "  - {name: discount, type: \"decimal(10,2)\", doc: \"applied discount\"}\npartition:");

    ApplyPlan plan = applier(withDiscount).commit();

    assertThat(plan.describe())
        .containsExactly("add column sales.fact_orders.discount decimal(10,2)");
    Table table = load("sales.fact_orders");
    assertThat(table.schema().findField("order_date").fieldId()).isEqualTo(4);
    assertThat(table.schema().findField("discount"))
        .isEqualTo(
            Types.NestedField.optional(
                5, "discount", Types.DecimalType.of(10, 2), "applied discount"));
    assertThat(applier(withDiscount).commit().isEmpty()).isTrue();
  }

  @Test
  void widensIntFloatAndDecimalColumns() {
    applier(
            """
            table: sales.t
            schema:
              - {name: id, type: long, required: true}
              - {name: n,  type: int}
              - {name: f,  type: float}
              - {name: d,  type: "decimal(10,2)"}
            """)
        .commit();
    String widened =
        """
        table: sales.t
        schema:
          - {name: id, type: long, required: true}
          - {name: n,  type: long}
          - {name: f,  type: double}
          - {name: d,  type: "decimal(12,2)"}
        """;

    ApplyPlan plan = applier(widened).commit();

    assertThat(plan.describe())
        .containsExactly(
            "widen sales.t.n int -> long",
            "widen sales.t.f float -> double",
            "widen sales.t.d decimal(10,2) -> decimal(12,2)");
    Table table = load("sales.t");
    assertThat(table.schema().findField("n"))
        .isEqualTo(Types.NestedField.optional(2, "n", Types.LongType.get()));
    assertThat(table.schema().findField("f").type()).isEqualTo(Types.DoubleType.get());
    assertThat(table.schema().findField("d").type()).isEqualTo(Types.DecimalType.of(12, 2));
    assertThat(applier(widened).commit().isEmpty()).isTrue();
  }

  @Test
  void makesARequiredColumnOptionalAndSetsItsDoc() {
    applier(
            "table: sales.t\nschema:\n  - {name: id, type: long, required: true}\n"
                + "  - {name: code, type: string, required: true}\n")
        .commit();
    String relaxed =
        "table: sales.t\nschema:\n  - {name: id, type: long, required: true}\n"
            + "  - {name: code, type: string, doc: \"ISO code\"}\n";

    ApplyPlan plan = applier(relaxed).commit();

    assertThat(plan.describe())
        .containsExactly("make sales.t.code optional", "set doc of sales.t.code to \"ISO code\"");
    assertThat(load("sales.t").schema().findField("code"))
        .isEqualTo(Types.NestedField.optional(2, "code", Types.StringType.get(), "ISO code"));
    assertThat(applier(relaxed).commit().isEmpty()).isTrue();
  }

  @Test
  void changesTheKeyToOtherRequiredColumns() {
    String columns =
        "table: sales.t\nschema:\n  - {name: id, type: long, required: true}\n"
            + "  - {name: line, type: int, required: true}\n";
    applier(columns + "key: [id]\n").commit();

    assertThat(applier(columns + "key: [id, line]\n").commit().describe())
        .containsExactly("change key of sales.t [id] -> [id, line]");
    assertThat(load("sales.t").schema().identifierFieldNames())
        .containsExactlyInAnyOrder("id", "line");

    assertThat(applier(columns).commit().describe())
        .containsExactly("change key of sales.t [id, line] -> []");
    assertThat(load("sales.t").schema().identifierFieldNames()).isEmpty();
    assertThat(applier(columns).commit().isEmpty()).isTrue();
  }

  @Test
  void setsSpecPropertiesAndLeavesOtherPropertiesAlone() {
    String base = simple("sales.t");
    applier(base + "properties: {commit.retry.num-retries: 4}\n").commit();
    load("sales.t").updateProperties().set("owner.team", "finance").commit();
    String changed =
        base + "properties: {commit.retry.num-retries: 5, write.parquet.compression-codec: gzip}\n";

    ApplyPlan plan = applier(changed).commit();

    assertThat(plan.describe())
        .containsExactlyInAnyOrder(
            "set property sales.t commit.retry.num-retries=5 (was 4)",
            "set property sales.t floe.spec-properties="
                + "commit.retry.num-retries,write.parquet.compression-codec"
                + " (was commit.retry.num-retries)",
            "set property sales.t write.parquet.compression-codec=gzip (was zstd)");
    assertThat(load("sales.t").properties())
        .containsEntry("commit.retry.num-retries", "5")
        .containsEntry("write.parquet.compression-codec", "gzip")
        .containsEntry("owner.team", "finance");
    assertThat(applier(changed).commit().isEmpty()).isTrue();
  }

  @Test
  void aCodecTheSpecNoLongerSetsGoesBackToWhatANewTableGetsAndAHandEditedMarkerSparesFloesOwn() {
    String base = simple("sales.t");
    applier(base + "properties: {write.parquet.compression-codec: gzip}\n").commit();
    load("sales.t")
        .updateProperties()
        .set(FloeTableProperties.SEALED_THROUGH, "2026-10-01")
        .set(
            FloeTableProperties.SPEC_PROPERTIES,
            "write.parquet.compression-codec, floe.sealed-through")
        .commit();

    ApplyPlan plan = applier(base).commit();

    assertThat(plan.describe())
        .containsExactlyInAnyOrder(
            "set property sales.t write.parquet.compression-codec=zstd (was gzip)",
            "remove property sales.t floe.spec-properties"
                + " (was write.parquet.compression-codec, floe.sealed-through)");
    assertThat(load("sales.t").properties())
        .containsEntry("write.parquet.compression-codec", "zstd")
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-01");
    assertThat(applier(base).commit().isEmpty()).isTrue();
  }

  @Test
  void aPropertyTheSpecNoLongerSetsIsRemovedAndOtherToolsPropertiesStay() {
    String base = simple("sales.t");
    applier(base + "properties: {commit.retry.num-retries: 4, write.target-file-size-bytes: 100}\n")
        .commit();
    load("sales.t").updateProperties().set("owner.team", "finance").commit();

    ApplyPlan fewer = applier(base + "properties: {commit.retry.num-retries: 4}\n").commit();
    ApplyPlan none = applier(base).commit();

    assertThat(fewer.describe())
        .containsExactlyInAnyOrder(
            "remove property sales.t write.target-file-size-bytes (was 100)",
            "set property sales.t floe.spec-properties=commit.retry.num-retries"
                + " (was commit.retry.num-retries,write.target-file-size-bytes)");
    assertThat(none.describe())
        .containsExactlyInAnyOrder(
            "remove property sales.t commit.retry.num-retries (was 4)",
            "remove property sales.t floe.spec-properties (was commit.retry.num-retries)");
    assertThat(load("sales.t").properties())
        .containsEntry("owner.team", "finance")
        .doesNotContainKeys(
            "commit.retry.num-retries", "write.target-file-size-bytes", "floe.spec-properties");
    assertThat(applier(base).commit().isEmpty()).isTrue();
  }

  @Test
  void writesRetentionAndLateDataAsTablePropertiesThatReadBackAsTheSpec() {
    String base = simple("sales.t");
    applier(base + "late_data: {window: P3D, after_window: reopen}\nretention: {keep_last: 20}\n")
        .commit();
    String changed =
        base + "late_data: {window: PT36H}\nretention: {keep_last: 20, max_age: P7D}\n";

    ApplyPlan plan = applier(changed).commit();

    assertThat(plan.describe())
        .containsExactly(
            "set property sales.t floe.retention.max-age=P7D",
            "set property sales.t floe.late-data.window=PT36H (was P3D)",
            "set property sales.t floe.late-data.after-window=report (was reopen)");
    Map<String, String> properties = load("sales.t").properties();
    assertThat(FloeTableProperties.retention(properties))
        .contains(new RetentionSpec(20, java.time.Duration.ofDays(7)));
    assertThat(FloeTableProperties.lateData(properties))
        .contains(
            new LateDataSpec(java.time.Duration.ofHours(36), LateDataSpec.AfterWindow.REPORT));
    assertThat(applier(changed).commit().isEmpty()).isTrue();
  }

  @Test
  void removingTheMaintenanceAndRetentionBlocksRemovesTheirPropertiesAndSaysSo() {
    String base = simple("sales.t");
    applier(
            base
                + "retention: {keep_last: 20}\n"
                + "maintenance: {min_input_files: 8, max_manifests: 40}\n")
        .commit();
    load("sales.t").updateProperties().set("owner.team", "finance").commit();
    Map<String, String> before = load("sales.t").properties();

    ApplyPlan plan = applier(base).commit();

    assertThat(plan.describe())
        .allMatch(line -> line.startsWith("remove property sales.t floe."))
        .contains(
            "remove property sales.t floe.maintain.max-manifests (was 40)",
            "remove property sales.t floe.maintain.min-input-files (was 8)",
            "remove property sales.t floe.retention.keep-last (was 20)");
    assertThat(before).containsKey(MaintenancePolicy.MAX_MANIFESTS);
    assertThat(load("sales.t").properties())
        .containsEntry("owner.team", "finance")
        .allSatisfy((key, value) -> assertThat(FloeTableProperties.managedFromSpec(key)).isFalse());
    assertThat(applier(base).commit().isEmpty()).isTrue();
  }

  @Test
  void refusesToDropTheSortOrdersColumnEvenWhenDropsAreAllowed() {
    applier(dated("sales.t", "[]")).commit();
    load("sales.t").replaceSortOrder().asc("ts").commit();
    String withoutTs =
        simple("sales.t") + "  - {name: d,    type: date}\n" + "  - {name: name, type: string}\n";

    ApplyPlan dryRun = applier(withoutTs).allowDropColumns(true).apply();

    assertThat(dryRun.refusals())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reason())
                    .contains(
                        "Cannot drop column sales.t.ts timestamp: the"
                            + " table's sort order uses it"));
    assertThatThrownBy(() -> applier(withoutTs).allowDropColumns(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("the table's sort order uses it");
  }

  @Test
  void removingTheLateDataBlockRemovesItsPolicyButNotTheSealedThroughMark() {
    String base = simple("sales.t");
    applier(base + "late_data: {window: P3D, after_window: reopen}\n").commit();
    load("sales.t")
        .updateProperties()
        .set(FloeTableProperties.SEALED_THROUGH, "2026-10-01")
        .commit();

    ApplyPlan plan = applier(base).commit();

    assertThat(plan.describe())
        .containsExactlyInAnyOrder(
            "remove property sales.t floe.late-data.after-window (was reopen)",
            "remove property sales.t floe.late-data.window (was P3D)");
    assertThat(load("sales.t").properties())
        .doesNotContainKeys(
            FloeTableProperties.LATE_DATA_WINDOW, FloeTableProperties.LATE_DATA_AFTER_WINDOW)
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-01");
    assertThat(applier(base).commit().isEmpty()).isTrue();
  }

  @Test
  void refusesUnreadablePolicyPropertiesWithTheValue() {
    assertThat(FloeTableProperties.retention(Map.of())).isEmpty();
    assertThatThrownBy(
            () -> FloeTableProperties.retention(Map.of("floe.retention.max-age", "7 days")))
        .hasMessageContaining("floe.retention.max-age=7 days: expected an ISO-8601 duration");
    assertThatThrownBy(
            () ->
                FloeTableProperties.lateData(
                    Map.of("floe.late-data.window", "P1D", "floe.late-data.after-window", "drop")))
        .hasMessageContaining("after-window=drop: expected report or reopen");
    assertThatThrownBy(
            () -> FloeTableProperties.retention(Map.of("floe.retention.max-age", "P-1D")))
        .hasMessageContaining("floe.retention.max-age=P-1D: expected a positive duration");
    assertThatThrownBy(
            () -> FloeTableProperties.retention(Map.of("floe.retention.max-age", "PT0S")))
        .hasMessageContaining("expected a positive duration");
    assertThatThrownBy(() -> FloeTableProperties.lateData(Map.of("floe.late-data.window", "-P1D")))
        .hasMessageContaining("floe.late-data.window=-P1D: expected a positive duration");
    assertThatThrownBy(() -> FloeTableProperties.retention(Map.of("floe.retention.keep-last", "0")))
        .hasMessageContaining("keep-last=0: expected a positive number of snapshots");
    assertThatThrownBy(
            () -> FloeTableProperties.retention(Map.of("floe.retention.keep-last", "99999999999")))
        .hasMessageContaining("keep-last=99999999999: expected a positive number of snapshots");
  }

  @Test
  void refusesToDropAColumnAndChangesNoTableOfTheBatch() {
    applier(simple("sales.t") + "  - {name: legacy, type: string}\n", simple("sales.u")).commit();
    String metadataT = metadataLocation("sales.t");
    String metadataU = metadataLocation("sales.u");
    TableSpecApplier batch =
        applier(
            simple("sales.u") + "  - {name: note, type: string}\n",
            simple("sales.t"),
            simple("audit.v"));

    assertThatThrownBy(batch::commit)
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot apply table specs: 1 change is refused, so no table was changed:"
                + " Cannot drop optional column sales.t.legacy string: it is in the table but"
                + " not in the spec, and dropping it deletes its data (use --allow-drop-columns"
                + " to drop it)");

    assertThat(metadataLocation("sales.t")).isEqualTo(metadataT);
    assertThat(metadataLocation("sales.u")).isEqualTo(metadataU);
    assertThat(load("sales.u").schema().findField("note")).isNull();
    assertThat(catalog.tableExists(TableIdentifier.parse("audit.v"))).isFalse();
    assertThat(((SupportsNamespaces) catalog).namespaceExists(Namespace.of("audit"))).isFalse();
    assertThat(batch.apply().refusals())
        .containsExactly(
            new RefusedChange(
                "sales.t",
                "legacy",
                "Cannot drop optional column sales.t.legacy string: it is in the table but not in"
                    + " the spec, and dropping it deletes its data (use --allow-drop-columns to"
                    + " drop it)",
                "--allow-drop-columns"));
  }

  @Test
  void dropsColumnsRequiredOnesTooOnlyWhenAllowed() {
    String full =
        simple("sales.t")
            + "  - {name: must, type: string, required: true}\n"
            + "  - {name: maybe, type: string}\n";
    applier(full).commit();
    Table table = load("sales.t");
    TableRows.append(table, TableRows.row(table, Map.of("id", 1L, "must", "x")));

    assertThat(applier(simple("sales.t")).apply().refusals())
        .extracting(RefusedChange::column, RefusedChange::allowedBy)
        .containsExactly(
            tuple("must", "--allow-drop-columns"), tuple("maybe", "--allow-drop-columns"));
    assertThatThrownBy(() -> applier(simple("sales.t")).commit())
        .hasMessageContaining("Cannot drop required column sales.t.must string")
        .hasMessageContaining("Cannot drop optional column sales.t.maybe string");

    ApplyPlan plan = applier(simple("sales.t")).allowDropColumns(true).commit();

    assertThat(plan.describe())
        .containsExactly("drop column sales.t.must string", "drop column sales.t.maybe string");
    assertThat(load("sales.t").schema().columns())
        .extracting(Types.NestedField::name)
        .containsExactly("id");
    assertThat(applier(simple("sales.t")).commit().isEmpty()).isTrue();
  }

  @Test
  void refusesToAddARequiredColumnEvenWithEveryOption() {
    applier(simple("sales.t")).commit();
    String metadata = metadataLocation("sales.t");
    String withRequired = simple("sales.t") + "  - {name: region, type: string, required: true}\n";

    assertThatThrownBy(
            () -> applier(withRequired).allowDropColumns(true).allowRepartition(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot add required column sales.t.region string: existing rows have no value for"
                + " it (declare it without required: true)");
    assertThat(applier(withRequired).apply().refusals())
        .singleElement()
        .satisfies(refusal -> assertThat(refusal.allowedBy()).isNull());
    assertThat(metadataLocation("sales.t")).isEqualTo(metadata);
  }

  @Test
  void refusesNarrowingAndIncompatibleTypeChangesEvenWithEveryOption() {
    applier(
            simple("sales.t")
                + "  - {name: n, type: long}\n"
                + "  - {name: s, type: string}\n"
                + "  - {name: d, type: \"decimal(10,2)\"}\n")
        .commit();
    String metadata = metadataLocation("sales.t");
    String narrowed =
        simple("sales.t")
            + "  - {name: n, type: int}\n"
            + "  - {name: s, type: int}\n"
            + "  - {name: d, type: \"decimal(10,4)\"}\n";

    assertThatThrownBy(
            () -> applier(narrowed).allowDropColumns(true).allowRepartition(true).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot apply table specs: 3 changes are refused")
        .hasMessageContaining("Cannot change type of column sales.t.n from long to int")
        .hasMessageContaining("Cannot change type of column sales.t.s from string to int")
        .hasMessageContaining(
            "Cannot change type of column sales.t.d from decimal(10,2) to decimal(10,4)");
    assertThat(metadataLocation("sales.t")).isEqualTo(metadata);
  }

  @Test
  void refusesToMakeAnOptionalColumnRequired() {
    applier(simple("sales.t") + "  - {name: n, type: long}\n").commit();
    String metadata = metadataLocation("sales.t");

    assertThatThrownBy(
            () ->
                applier(simple("sales.t") + "  - {name: n, type: long, required: true}\n").commit())
        .hasMessageContaining(
            "Cannot make column sales.t.n required: existing rows may hold nulls (keep it"
                + " optional)");
    assertThat(metadataLocation("sales.t")).isEqualTo(metadata);
  }

  @Test
  void refusesToRepartitionATableWithDataUnlessAllowed() {
    String daily = dated("sales.t", "[d]");
    String monthly = dated("sales.t", "[\"month(d)\"]");
    applier(daily).commit();
    Table table = load("sales.t");
    LocalDate day = LocalDate.of(2026, 10, 3);
    TableRows.append(
        table,
        TableRows.row(table, Map.of("id", 1L, "d", day)),
        TableRows.row(table, Map.of("id", 2L, "d", day)));
    String metadata = metadataLocation("sales.t");

    assertThatThrownBy(() -> applier(monthly).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot repartition sales.t from [d] to [month(d)]: the table holds 2 rows, whose"
                + " files keep the old layout (use --allow-repartition to partition only new data"
                + " the new way)");
    assertThat(metadataLocation("sales.t")).isEqualTo(metadata);

    ApplyPlan plan = applier(monthly).allowRepartition(true).commit();

    assertThat(plan.describe()).containsExactly("repartition sales.t [d] -> [month(d)]");
    assertThat(load("sales.t").spec().fields())
        .singleElement()
        .satisfies(field -> assertThat(field.transform().toString()).isEqualTo("month"));
    assertThat(applier(monthly).commit().isEmpty()).isTrue();
  }

  @Test
  void refusesToRepartitionATableWhoseRowsAreOnABranchOnly() {
    applier(dated("sales.t", "[d]")).commit();
    Table table = load("sales.t");
    table.manageSnapshots().createBranch("audit-r1").commit();
    table
        .newAppend()
        .appendFile(
            TableRows.write(
                table, TableRows.row(table, Map.of("id", 1L, "d", LocalDate.of(2026, 1, 1)))))
        .toBranch("audit-r1")
        .commit();

    assertThat(applier(dated("sales.t", "[\"month(d)\"]")).apply().refusals())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).contains("holds 1 row"));
  }

  @Test
  void dropsThePartitionColumnOfANeverWrittenTableInTheApplyThatRepartitionsAway() {
    applier(dated("sales.t", "[d]")).commit();
    String withoutD =
        simple("sales.t")
            + "  - {name: ts,   type: timestamp}\n"
            + "  - {name: name, type: string}\n"
            + "partition: [\"day(ts)\"]\n";

    ApplyPlan plan = applier(withoutD).allowDropColumns(true).commit();

    assertThat(plan.describe())
        .containsExactly("repartition sales.t [d] -> [day(ts)]", "drop column sales.t.d date");
    assertThat(load("sales.t").schema().findField("d")).isNull();
    assertThat(applier(withoutD).commit().isEmpty()).isTrue();
  }

  @Test
  void repartitionsAnEmptyTableFreely() {
    applier(dated("sales.never_written", "[d]"), dated("sales.emptied", "[d]")).commit();
    // A snapshot with zero rows is as empty as no snapshot at all.
    load("sales.emptied").newAppend().commit();
    assertThat(load("sales.emptied").currentSnapshot()).isNotNull();
    String unpartitioned = "[]";

    ApplyPlan plan =
        applier(
                dated("sales.never_written", "[\"bucket(8, id)\", \"day(ts)\"]"),
                dated("sales.emptied", unpartitioned))
            .commit();

    assertThat(plan.describe())
        .containsExactly(
            "repartition sales.never_written [d] -> [bucket(8, id), day(ts)]",
            "repartition sales.emptied [d] -> []");
    assertThat(TablePartitioning.describe(load("sales.never_written").spec()))
        .containsExactly("bucket(8, id)", "day(ts)");
    assertThat(load("sales.emptied").spec().isUnpartitioned()).isTrue();
  }

  @Test
  void aRowAppendedBetweenPlanAndCommitFailsTheApplyInsteadOfRepartitioningOverIt() {
    applier(dated("sales.t", "[d]")).commit();
    // Another writer appends a row just before the apply commits what it planned on the empty
    // table (a repartition no flag allows over data).
    Catalog racing =
        catalogLoading(
            identifier ->
                InterceptedTable.beforeEachCommit(
                    catalog.loadTable(identifier),
                    attempt -> {
                      Table other = catalog.loadTable(identifier);
                      TableRows.append(
                          other,
                          TableRows.row(
                              other, Map.of("id", 1L, "d", LocalDate.parse("2026-10-03"))));
                    }));
    TableSpec unpartitioned = TableSpecParser.parse("tables/spec.yaml", dated("sales.t", "[]"));

    assertThatThrownBy(() -> new TableSpecApplier(racing, List.of(unpartitioned)).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageStartingWith(
            "Cannot apply the spec of sales.t (tables/spec.yaml): the table changed since it was"
                + " planned");
    assertThat(TablePartitioning.describe(load("sales.t").spec())).containsExactly("d");
    assertThat(load("sales.t").currentSnapshot().summary()).containsEntry("total-records", "1");
  }

  @Test
  void aRowAppendedBetweenPlanAndStagingFailsTheApplyToo() {
    applier(dated("sales.t", "[d]")).commit();
    // The row lands after the plan, when the apply stages the table's transaction (which
    // refreshes the table first).
    Catalog racing =
        catalogLoading(
            identifier ->
                new BaseTable(
                    ((HasTableOperations) catalog.loadTable(identifier)).operations(),
                    identifier.toString()) {
                  @Override
                  public Transaction newTransaction() {
                    Table other = catalog.loadTable(identifier);
                    TableRows.append(
                        other,
                        TableRows.row(other, Map.of("id", 1L, "d", LocalDate.parse("2026-10-03"))));
                    return super.newTransaction();
                  }
                });
    TableSpec unpartitioned = TableSpecParser.parse("tables/spec.yaml", dated("sales.t", "[]"));

    assertThatThrownBy(() -> new TableSpecApplier(racing, List.of(unpartitioned)).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("the table changed since it was planned");
    assertThat(TablePartitioning.describe(load("sales.t").spec())).containsExactly("d");
  }

  @Test
  void aTableAnotherApplyCreatesAfterThePlanIsAConflictToRetryNotAnUnexpectedFailure() {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
    // The plan finds no table; by the time this apply creates it, another one has.
    Catalog racing =
        racing(
            identifier -> {
              throw new NoSuchTableException("Table does not exist: %s", identifier);
            },
            (identifier, schema) -> {
              catalog.createTable(identifier, schema);
              return catalog.buildTable(identifier, schema);
            });
    TableSpec spec = TableSpecParser.parse("tables/spec.yaml", dated("sales.t", "[d]"));

    assertThatThrownBy(() -> new TableSpecApplier(racing, List.of(spec)).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessage(
            "Cannot apply the spec of sales.t (tables/spec.yaml): the table was created by someone"
                + " else since it was planned; nothing of this spec was applied; run `floe tables"
                + " apply` again to plan on the table as it is now");
  }

  @Test
  void aTableAnotherApplyCreatesAsTheSpecSaysAfterThePlanCountsAsDone() {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
    TableSpec spec = TableSpecParser.parse("tables/spec.yaml", dated("sales.t", "[d]"));
    TableSpec other = TableSpecParser.parse("tables/other.yaml", dated("sales.other", "[]"));
    // Two identical applies at once: the other one creates sales.t between this one's plan and
    // its commit. This apply failed with exit 4 though the table was just as its spec says.
    boolean[] planned = {false};
    Catalog racing =
        racing(
            identifier -> {
              if (!planned[0]) {
                throw new NoSuchTableException("Table does not exist: %s", identifier);
              }
              return catalog.loadTable(identifier);
            },
            (identifier, schema) -> {
              if (!planned[0] && identifier.name().equals("t")) {
                new TableSpecApplier(catalog, List.of(spec)).commit();
              }
              planned[0] = planned[0] || identifier.name().equals("other");
              return catalog.buildTable(identifier, schema);
            });

    ApplyPlan plan = new TableSpecApplier(racing, List.of(spec, other)).commit();

    assertThat(plan.describe())
        .containsExactly("create table sales.other (4 columns, unpartitioned, no key, format v2)");
    assertThat(TablePartitioning.describe(load("sales.t").spec())).containsExactly("d");
    assertThat(applier(dated("sales.t", "[d]")).apply().isEmpty()).isTrue();
  }

  @Test
  void aTableAnotherApplyCreatesFromAnotherSpecAfterThePlanIsStillAConflict() {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
    TableSpec spec = TableSpecParser.parse("tables/spec.yaml", dated("sales.t", "[d]"));
    // The other apply's spec has a long column `name` and one more column: re-planning this spec
    // on it refuses (no narrowing, no drop without the flag) but changes nothing, which counted
    // as done.
    TableSpec theirs =
        TableSpecParser.parse(
            "tables/theirs.yaml",
            dated("sales.t", "[d]")
                .replace("{name: name, type: string}", "{name: name, type: long}")
                .replace("partition:", "  - {name: extra, type: int}\npartition:"));
    boolean[] created = {false};
    Catalog racing =
        racing(
            identifier -> {
              if (!created[0]) {
                throw new NoSuchTableException("Table does not exist: %s", identifier);
              }
              return catalog.loadTable(identifier);
            },
            (identifier, schema) -> {
              if (!created[0]) {
                new TableSpecApplier(catalog, List.of(theirs)).commit();
                created[0] = true;
              }
              return catalog.buildTable(identifier, schema);
            });

    assertThatThrownBy(() -> new TableSpecApplier(racing, List.of(spec)).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageContaining("the table was created by someone else since it was planned");
  }

  @Test
  void aConflictAfterEarlierTablesWereAppliedNamesThem() {
    applier(dated("sales.t", "[d]")).commit();
    // sales.a is created first; a row lands in sales.t while its change is staged.
    Catalog racing =
        racing(
            identifier -> {
              if (identifier.name().equals("a")) {
                throw new NoSuchTableException("Table does not exist: %s", identifier);
              }
              return new BaseTable(
                  ((HasTableOperations) catalog.loadTable(identifier)).operations(),
                  identifier.toString()) {
                @Override
                public Transaction newTransaction() {
                  Table other = catalog.loadTable(identifier);
                  TableRows.append(
                      other,
                      TableRows.row(other, Map.of("id", 1L, "d", LocalDate.parse("2026-10-03"))));
                  return super.newTransaction();
                }
              };
            },
            (identifier, schema) -> {
              return catalog.buildTable(identifier, schema);
            });
    List<TableSpec> specs =
        List.of(
            TableSpecParser.parse("tables/a.yaml", dated("sales.a", "[]")),
            TableSpecParser.parse("tables/t.yaml", dated("sales.t", "[]")));

    // It printed only the conflict, and nothing said sales.a had been created.
    assertThatThrownBy(() -> new TableSpecApplier(racing, specs).commit())
        .isInstanceOf(CommitConflictException.class)
        .hasMessageStartingWith("Cannot apply the spec of sales.t (tables/t.yaml)")
        .hasMessageEndingWith("; applied before it: sales.a");
    assertThat(load("sales.a")).isNotNull();
  }

  /** A catalog whose tables are what {@code load} makes of them (names, listing from ours). */
  private Catalog catalogLoading(Function<TableIdentifier, Table> load) {
    return racing(load, catalog::buildTable);
  }

  /**
   * A catalog that loads tables with {@code load} and builds new ones with {@code build}, as
   * another process's commits interleave with an apply; listing from ours.
   */
  private Catalog racing(
      Function<TableIdentifier, Table> load,
      BiFunction<TableIdentifier, Schema, Catalog.TableBuilder> build) {
    return new Catalog() {
      @Override
      public Table loadTable(TableIdentifier identifier) {
        return load.apply(identifier);
      }

      @Override
      public Catalog.TableBuilder buildTable(TableIdentifier identifier, Schema schema) {
        return build.apply(identifier, schema);
      }

      @Override
      public List<TableIdentifier> listTables(Namespace namespace) {
        return catalog.listTables(namespace);
      }

      @Override
      public boolean dropTable(TableIdentifier identifier, boolean purge) {
        throw new UnsupportedOperationException();
      }

      @Override
      public void renameTable(TableIdentifier from, TableIdentifier to) {
        throw new UnsupportedOperationException();
      }
    };
  }

  @Test
  void reordersPartitionFieldsToTheSpecOrder() {
    applier(dated("sales.t", "[d, \"bucket(8, id)\", \"truncate(2, name)\"]")).commit();
    String reordered = dated("sales.t", "[d, \"truncate(2, name)\", \"bucket(8, id)\"]");

    assertThat(applier(reordered).commit().describe())
        .containsExactly(
            "repartition sales.t [d, bucket(8, id), truncate(2, name)]"
                + " -> [d, truncate(2, name), bucket(8, id)]");
    assertThat(TablePartitioning.describe(load("sales.t").spec()))
        .containsExactly("d", "truncate(2, name)", "bucket(8, id)");
    assertThat(applier(reordered).commit().isEmpty()).isTrue();
  }

  @Test
  void refusesToDropAColumnThatAPartitionSpecOfWrittenFilesUsesEvenWithBothOptions()
      throws IOException {
    applier(dated("sales.t", "[d]")).commit();
    Table table = load("sales.t");
    TableRows.append(table, TableRows.row(table, Map.of("id", 1L, "d", LocalDate.of(2026, 1, 1))));
    String withoutD =
        """
        table: sales.t
        schema:
          - {name: id,   type: long, required: true}
          - {name: ts,   type: timestamp}
          - {name: name, type: string}
        partition: ["day(ts)"]
        """;
    String metadata = metadataLocation("sales.t");

    ApplyPlan dryRun = applier(withoutD).allowDropColumns(true).allowRepartition(true).apply();

    // Files written with [d] name d in their partition: without the column Iceberg cannot read
    // the table at all, whatever the options.
    assertThat(dryRun.refusals())
        .singleElement()
        .satisfies(
            refusal -> {
              assertThat(refusal.allowedBy()).isNull();
              assertThat(refusal.reason())
                  .contains("Cannot drop column sales.t.d date: partition spec 0 [d]");
            });
    assertThatThrownBy(
            () -> applier(withoutD).allowDropColumns(true).allowRepartition(true).commit())
        .isInstanceOf(InvalidInputException.class);
    assertThat(metadataLocation("sales.t")).isEqualTo(metadata);
    // Repartitioning alone, keeping the column, is fine, and the table stays readable.
    String keepD =
        withoutD.replace(
            "  - {name: name, type: string}\n",
            "  - {name: name, type: string}\n  - {name: d, type: date}\n");
    applier(keepD).allowRepartition(true).commit();
    try (var rows = org.apache.iceberg.data.IcebergGenerics.read(load("sales.t")).build()) {
      assertThat(rows).hasSize(1);
    }
    assertThat(applier(withoutD).allowDropColumns(true).apply().refusals())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).contains("partition spec 0 [d] (files written"));
  }

  @Test
  void stagesEveryTableBeforePersistingAnySoAnIcebergRejectionChangesNothing() {
    applier(simple("sales.a"), simple("sales.b") + "  - {name: x, type: double, required: true}\n")
        .commit();
    String metadataA = metadataLocation("sales.a");
    String metadataB = metadataLocation("sales.b");
    // Built in code, so the parser's key checks do not run: only Iceberg stops the float key.
    TableSpec floatKey =
        new TableSpec(
            "sales.b",
            List.of(
                new ColumnSpec("id", Types.LongType.get(), true, Optional.empty()),
                new ColumnSpec("x", Types.DoubleType.get(), true, Optional.empty())),
            List.of(),
            List.of("x"),
            Optional.empty(),
            Optional.empty(),
            Map.of(),
            "code");
    TableSpec addNote =
        TableSpecParser.parse(
            "tables/a.yaml", simple("sales.a") + "  - {name: note, type: string}\n");
    TableSpecApplier batch = new TableSpecApplier(catalog, List.of(addNote, floatKey));

    assertThat(batch.apply().refusals()).isEmpty();
    assertThatThrownBy(batch::commit)
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot apply the spec of sales.b (code): Iceberg refused it: ")
        .hasMessageContaining("float or double")
        .hasMessageEndingWith("; no table was changed");
    assertThat(metadataLocation("sales.a")).isEqualTo(metadataA);
    assertThat(metadataLocation("sales.b")).isEqualTo(metadataB);
  }

  @Test
  void createsTablesInANewNamespaceOnCatalogsThatPlaceTablesUnderTheirNamespace() {
    // Like Glue and Hive: a new table's default location comes from its namespace, so a table
    // cannot be staged before its namespace exists.
    InMemoryCatalog namespaced =
        new InMemoryCatalog() {
          @Override
          protected String defaultWarehouseLocation(TableIdentifier identifier) {
            if (!namespaceExists(identifier.namespace())) {
              throw new NoSuchNamespaceException("Database %s not found", identifier.namespace());
            }
            return super.defaultWarehouseLocation(identifier);
          }
        };
    namespaced.initialize(
        "namespaced",
        Map.of(CatalogProperties.WAREHOUSE_LOCATION, home.resolve("warehouse").toUri().toString()));

    ApplyPlan plan =
        new TableSpecApplier(
                namespaced, List.of(TableSpecParser.parse("tables/spec.yaml", FACT_ORDERS)))
            .commit();

    assertThat(plan.describe()).first().isEqualTo("create namespace sales");
    assertThat(namespaced.tableExists(TableIdentifier.parse("sales.fact_orders"))).isTrue();
  }

  @Test
  void dryRunPlansWithoutChangingAnything() {
    ApplyPlan createPlan = applier(FACT_ORDERS).apply();

    assertThat(createPlan.changes())
        .extracting(TableChange::kind)
        .containsExactly("create-namespace", "create-table");
    assertThat(((SupportsNamespaces) catalog).namespaceExists(Namespace.of("sales"))).isFalse();
    assertThat(catalog.tableExists(TableIdentifier.parse("sales.fact_orders"))).isFalse();

    applier(FACT_ORDERS).commit();
    String metadata = metadataLocation("sales.fact_orders");
    String evolved =
        FACT_ORDERS
            .replace("customer_id, type: long}", "customer_id, type: long, doc: \"buyer\"}")
            .replace("previous-versions-max: 50", "previous-versions-max: 60");
    ApplyPlan evolvePlan = applier(evolved).apply();

    assertThat(evolvePlan.describe())
        .containsExactly(
            "set doc of sales.fact_orders.customer_id to \"buyer\"",
            "set property sales.fact_orders write.metadata.previous-versions-max=60 (was 50)");
    assertThat(metadataLocation("sales.fact_orders")).isEqualTo(metadata);
    assertThat(applier(evolved).apply()).isEqualTo(evolvePlan);
  }

  @Test
  void matchesColumnsByExactName() {
    applier(simple("sales.t") + "  - {name: Amount, type: long}\n").commit();

    ApplyPlan plan = applier(simple("sales.t") + "  - {name: amount, type: long}\n").apply();

    assertThat(plan.changes())
        .extracting(TableChange::describe)
        .containsExactly("add column sales.t.amount long");
    assertThat(plan.refusals()).extracting(RefusedChange::column).containsExactly("Amount");
  }

  @Test
  void refusesTwoSpecsForTheSameTable() {
    assertThatThrownBy(() -> applier(simple("sales.t"), simple("sales.t")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot apply table specs: table sales.t is declared twice, in tables/spec.yaml and"
                + " in tables/spec.yaml");
  }

  private TableSpecApplier applier(String... specs) {
    List<TableSpec> parsed =
        Arrays.stream(specs).map(text -> TableSpecParser.parse("tables/spec.yaml", text)).toList();
    return new TableSpecApplier(catalog, parsed);
  }

  /** A table with one required key-less id column; append column lines to extend it. */
  private static String simple(String table) {
    return "table: " + table + "\nschema:\n  - {name: id, type: long, required: true}\n";
  }

  /** A table with date, timestamp and string columns to partition on. */
  private static String dated(String table, String partition) {
    return simple(table)
        + "  - {name: d,    type: date}\n"
        + "  - {name: ts,   type: timestamp}\n"
        + "  - {name: name, type: string}\n"
        + "partition: "
        + partition
        + "\n";
  }

  private Table load(String name) {
    return catalog.loadTable(TableIdentifier.parse(name));
  }

  private String metadataLocation(String name) {
    return ((HasTableOperations) load(name)).operations().current().metadataFileLocation();
  }
}
