package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.testing.ExampleTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timestamp slices before 1970 of a table partitioned by day of the timestamp. Iceberg 1.11's day
 * of a timestamp exactly 0.999999 s past midnight before 1970 is the day before, so a row at
 * 1969-12-31T00:00:00.999999 lands outside the slice of 1969-12-31 and Iceberg refuses the
 * overwrite: the run says why, commits nothing and leaves no file. Other rows of such slices load.
 */
class PreEpochTimestampSliceITCase {
  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()));
  private static final String JOB =
      "job: e\ntarget: sales.events\nslice: {column: ts}\nquery: |\n  SELECT id, ts FROM"
          + " sales.events_src WHERE ts >= :slice_start AND ts < :slice_end\n";

  @TempDir Path home;
  private CatalogConfig config;

  @BeforeEach
  void createTheTables() {
    config = CatalogConfigLoader.embedded(home);
    withCatalog(
        catalog -> {
          ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
          Table src =
              catalog.createTable(
                  TableIdentifier.of("sales", "events_src"), EVENTS, PartitionSpec.unpartitioned());
          TableRows.append(
              src,
              event(1, "1969-12-31T00:00:00.999999"), // Iceberg's day: 1969-12-30
              event(2, "1969-12-31T12:00:00"),
              event(3, "1969-12-30T00:00:00.5"),
              event(4, "1969-12-30T23:59:59.999999"));
          return catalog.createTable(
              TableIdentifier.of("sales", "events"),
              EVENTS,
              PartitionSpec.builderFor(EVENTS).day("ts").build());
        });
  }

  @Test
  void aRowIcebergFilesUnderTheDayBeforeFailsTheRunWithTheReasonAndCommitsNothing()
      throws IOException {
    assertRunRefusedAsInvalidInput("1969-12-31")
        .hasMessageContaining("Cannot commit slice ts=[1969-12-31,1970-01-01) of sales.events")
        .hasMessageContaining(
            "Iceberg 1.11 files a ts of 1969-12-31T00:00:00.999999 (0.999999 s past the start of"
                + " the slice, before 1970) under the ts_day value before the slice's first")
        .hasMessageContaining("nothing was committed");

    Table target = withCatalog(catalog -> catalog.loadTable(TableIdentifier.of("sales", "events")));
    assertThat(target.currentSnapshot()).isNull();
    try (Stream<Path> files = Files.walk(home.resolve("warehouse/sales/events/data"))) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    }
  }

  @Test
  void withoutColumnStatisticsAFileIcebergCannotProveInsideFailsTheRunWithTheReasonAndBlamesNoRow()
      throws IOException {
    // Without min/max of ts Iceberg cannot prove new files inside a slice starting before 1970
    // (its strict projection of such a day is one too high) and refuses the commit: the run says
    // why, and does not blame a row at 0.999999 s past the slice's start, for there is none.
    keepOnlyCountsOfTs();

    assertRunRefusedAsInvalidInput("1969-12-30")
        .hasMessageContaining("Cannot commit slice ts=[1969-12-30,1969-12-31) of sales.events")
        .hasMessageContaining("neither does for the file of partition ts_day=1969-12-30 (parquet)")
        .hasMessageContaining("the table keeps no min/max of ts (metrics mode counts)")
        .hasMessageContaining("write.metadata.metrics.column.ts to full; nothing was committed")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("0.999999"));
    assertNothingCommittedAndNoFileLeft();
  }

  @Test
  void withoutColumnStatisticsAMonthSliceBefore1970LoadsWhenItsFirstDayHoldsNoRow() {
    // Iceberg judges each new file by its own partition, and its strict projection is short only
    // at the slice's start: December 30 and 31 lie inside December 1969 by their partitions alone.
    keepOnlyCountsOfTs();

    RunResult result = run("1969-12");

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(result.outcome().rows()).isEqualTo(4);
    ContentHash loaded = withCatalog(catalog -> hashOfDecember(catalog, "events"));
    assertThat(loaded).isEqualTo(withCatalog(catalog -> hashOfDecember(catalog, "events_src")));
    assertThat(loaded.rows()).isEqualTo(4);
  }

  private static ContentHash hashOfDecember(Catalog catalog, String table) {
    return TableContent.hash(
        catalog.loadTable(TableIdentifier.of("sales", table)),
        Expressions.and(
            Expressions.greaterThanOrEqual("ts", "1969-12-01T00:00:00"),
            Expressions.lessThan("ts", "1970-01-01T00:00:00")));
  }

  @Test
  void anAvroTableIsToldThatAvroFilesCarryNoMinMaxRatherThanToKeepThem() {
    withCatalog(
        catalog -> {
          catalog
              .loadTable(TableIdentifier.of("sales", "events"))
              .updateProperties()
              .set("write.format.default", "avro")
              .set("write.metadata.metrics.column.ts", "counts")
              .commit();
          return null;
        });

    assertThatThrownBy(() -> run("1969-12-30"))
        .hasMessageContaining("neither does for the file of partition ts_day=1969-12-30 (avro)")
        .hasMessageContaining("Iceberg 1.11 writes no min/max into avro data files")
        .satisfies(
            e -> assertThat(e.getMessage()).doesNotContain("write.metadata.metrics.column.ts"));
  }

  @Test
  void withoutColumnStatisticsAMonthSliceWithARowOnItsFirstDayFailsNamingThatDay()
      throws IOException {
    keepOnlyCountsOfTs();
    appendToSource(event(5, "1970-01-15T12:00:00"), event(6, "1970-01-01T08:00:00"));

    assertRunRefusedAsInvalidInput("1970-01")
        .hasMessageContaining("Cannot commit slice ts=[1970-01-01,1970-02-01) of sales.events")
        .hasMessageContaining("the file of partition ts_day=1970-01-01 (parquet)")
        .hasMessageContaining("the table keeps no min/max of ts");
    assertNothingCommittedAndNoFileLeft();
  }

  private void keepOnlyCountsOfTs() {
    withCatalog(
        catalog -> {
          catalog
              .loadTable(TableIdentifier.of("sales", "events"))
              .updateProperties()
              .set("write.metadata.metrics.column.ts", "counts")
              .commit();
          return null;
        });
  }

  private void appendToSource(GenericRecord... rows) {
    withCatalog(
        catalog -> {
          TableRows.append(catalog.loadTable(TableIdentifier.of("sales", "events_src")), rows);
          return null;
        });
  }

  private void assertNothingCommittedAndNoFileLeft() throws IOException {
    Table target = withCatalog(catalog -> catalog.loadTable(TableIdentifier.of("sales", "events")));
    assertThat(target.currentSnapshot()).isNull();
    Path data = home.resolve("warehouse/sales/events/data");
    if (Files.exists(data)) {
      try (Stream<Path> files = Files.walk(data)) {
        assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
      }
    }
  }

  @Test
  void aSliceBefore1970WithoutSuchARowLoads() {
    RunResult result = run("1969-12-30");

    assertThat(result.outcome().status()).isEqualTo(CommitOutcome.Status.COMMITTED);
    assertThat(result.outcome().rows()).isEqualTo(2);
    ContentHash loaded = withCatalog(catalog -> hashOfDec30(catalog, "events"));
    assertThat(loaded).isEqualTo(withCatalog(catalog -> hashOfDec30(catalog, "events_src")));
  }

  private static ContentHash hashOfDec30(Catalog catalog, String table) {
    return TableContent.hash(
        catalog.loadTable(TableIdentifier.of("sales", table)),
        Expressions.and(
            Expressions.greaterThanOrEqual("ts", "1969-12-30T00:00:00"),
            Expressions.lessThan("ts", "1969-12-31T00:00:00")));
  }

  /** The run of {@code slice} fails with exit 2 (invalid input); its message is asserted on. */
  private AbstractThrowableAssert<?, ? extends Throwable> assertRunRefusedAsInvalidInput(
      String slice) {
    return assertThatThrownBy(() -> run(slice))
        .isInstanceOf(FloeException.class)
        .satisfies(
            e -> assertThat(((FloeException) e).exitCode()).isEqualTo(ExitCodes.INVALID_INPUT));
  }

  private RunResult run(String slice) {
    return SliceJob.run(RunRequest.of(config, ExampleTables.job(JOB), slice));
  }

  private static GenericRecord event(long id, String ts) {
    GenericRecord row = GenericRecord.create(EVENTS);
    row.setField("id", id);
    row.setField("ts", LocalDateTime.parse(ts));
    return row;
  }

  private <T> T withCatalog(Function<Catalog, T> action) {
    Catalog catalog = Catalogs.open(config);
    try {
      return action.apply(catalog);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
