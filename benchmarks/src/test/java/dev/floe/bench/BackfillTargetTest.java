package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's result check, fed hand-made loads of the target (one commit per slice, the way
 * Floe labels them): it must accept a correct load and stop on every kind of wrong one, or a fast
 * wrong backfill would be reported as a speed-up.
 */
class BackfillTargetTest {
  private static final String BACKFILL_ID = "bf-test";

  @TempDir Path home;
  private CatalogConfig config;
  private Catalog catalog;
  private BackfillDays days;

  @BeforeEach
  void stageThreeDays() {
    config = CatalogConfigLoader.embedded(home);
    catalog = Catalogs.open(config);
    Table staging = BenchTables.create(catalog);
    days =
        new BackfillDays(
            BackfillDays.FIRST, 20, StagingData.writeDays(staging, BackfillDays.FIRST, 3, 20, 1));
  }

  @AfterEach
  void closeCatalog() {
    Catalogs.close(catalog);
  }

  @Test
  void acceptsEverySliceLoadedOnceWithItsStagingRows() {
    for (int d = 0; d < 3; d++) {
      load(d, stagingRows(d), BACKFILL_ID);
    }

    assertThatCode(() -> BackfillTarget.verify("test", config, days, BACKFILL_ID))
        .doesNotThrowAnyException();
    assertThatCode(() -> BackfillTarget.verify("test", config, days, null))
        .doesNotThrowAnyException();
  }

  @Test
  void stopsOnAMissingSlice() {
    load(0, stagingRows(0), BACKFILL_ID);
    load(2, stagingRows(2), BACKFILL_ID);

    assertThatThrownBy(() -> BackfillTarget.verify("test", config, days, BACKFILL_ID))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Wrong result of test: 2 snapshots for 3 slices");
  }

  @Test
  void stopsOnASliceCommittedTwice() {
    for (int d = 0; d < 3; d++) {
      load(d, stagingRows(d), BACKFILL_ID);
    }
    // A second commit of day 2 that adds nothing: the content is still right, the history is not.
    table()
        .newAppend()
        .set(LineageKeys.SLICE, label(1))
        .set(LineageKeys.BACKFILL_ID, BACKFILL_ID)
        .commit();

    assertThatThrownBy(() -> BackfillTarget.verify("test", config, days, BACKFILL_ID))
        .hasMessageContaining("4 snapshots for 3 slices");
  }

  @Test
  void stopsOnASliceWithOneWrongValue() {
    load(0, stagingRows(0), BACKFILL_ID);
    List<Record> changed = stagingRows(1);
    changed.get(7).setField("amount", new BigDecimal("0.01"));
    load(1, changed, BACKFILL_ID);
    load(2, stagingRows(2), BACKFILL_ID);

    assertThatThrownBy(() -> BackfillTarget.verify("test", config, days, BACKFILL_ID))
        .hasMessageContaining("slice 2026-01-02 holds");
  }

  @Test
  void stopsOnACommitOfAnotherBackfill() {
    load(0, stagingRows(0), BACKFILL_ID);
    load(1, stagingRows(1), "another-backfill");
    load(2, stagingRows(2), BACKFILL_ID);

    assertThatThrownBy(() -> BackfillTarget.verify("test", config, days, BACKFILL_ID))
        .hasMessageContaining("has backfill id another-backfill, expected bf-test");
  }

  /** One commit holding {@code rows} as day {@code d}, labelled like a Floe run of that slice. */
  private void load(int d, List<Record> rows, String backfillId) {
    Table fact = table();
    fact.newAppend()
        .appendFile(TableRows.write(fact, rows.toArray(Record[]::new)))
        .set(LineageKeys.SLICE, label(d))
        .set(LineageKeys.BACKFILL_ID, backfillId)
        .commit();
  }

  private String label(int d) {
    return "order_date=[" + days.day(d) + "," + days.day(d + 1) + ")";
  }

  private List<Record> stagingRows(int d) {
    Table staging = Catalogs.loadTable(catalog, BenchTables.STAGING);
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> read =
        IcebergGenerics.read(staging)
            .where(Expressions.equal("order_date", days.day(d).toString()))
            .build()) {
      read.forEach(r -> rows.add(r.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private Table table() {
    return Catalogs.loadTable(catalog, BenchTables.FACT);
  }
}
