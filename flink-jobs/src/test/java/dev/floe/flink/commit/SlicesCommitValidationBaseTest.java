package dev.floe.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.testing.ExampleTables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that commits several slices validates each commit from the head only while everything since
 * the job's start is its own commits of other slices; anyone else's snapshot in between, or a gap
 * in the history, keeps the validation of the whole window.
 */
class SlicesCommitValidationBaseTest {
  @TempDir Path home;
  private Catalog catalog;
  private Table table;

  @BeforeEach
  void createTable() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 1, 1);
    catalog = Catalogs.open(config);
    table = Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS);
  }

  @AfterEach
  void close() {
    Catalogs.close(catalog);
  }

  @Test
  void onlyOwnCommitsSinceTheStartValidateFromTheHead() {
    long start = commit(1);
    Set<Long> own = new HashSet<>();
    own.add(commit(2));
    long second = commit(3);
    own.add(second);

    assertThat(SlicesCommitterOperator.validationBase(table, start, own)).isEqualTo(second);
  }

  @Test
  void aSnapshotOfAnyoneElseInBetweenKeepsTheWholeWindow() {
    long start = commit(1);
    Set<Long> own = new HashSet<>();
    own.add(commit(2));
    commit(3); // someone else's
    own.add(commit(4));

    assertThat(SlicesCommitterOperator.validationBase(table, start, own)).isEqualTo(start);
  }

  @Test
  void fromAnEmptyTableTheFirstSnapshotMustBeOwnToo() {
    Set<Long> own = new HashSet<>();
    long first = commit(1);
    own.add(first);
    long second = commit(2);
    own.add(second);

    assertThat(SlicesCommitterOperator.validationBase(table, null, own)).isEqualTo(second);
    assertThat(SlicesCommitterOperator.validationBase(table, null, Set.of(second))).isNull();
  }

  @Test
  void aStartThatIsNoLongerAnAncestorKeepsTheWholeWindow() {
    long before = commit(5);
    long start = commit(1);
    table.manageSnapshots().rollbackTo(before).commit(); // an operator rolls the start back
    table.refresh();
    Set<Long> own = new HashSet<>();
    own.add(commit(2));

    assertThat(table.snapshot(start)).isNotNull();
    assertThat(SlicesCommitterOperator.validationBase(table, start, own)).isEqualTo(start);
  }

  @Test
  void anExpiredSnapshotInBetweenKeepsTheWholeWindow() {
    long start = commit(1);
    Set<Long> own = new HashSet<>();
    long gone = commit(2);
    own.add(gone);
    own.add(commit(3));
    table.expireSnapshots().expireSnapshotId(gone).commit();
    table.refresh();

    assertThat(table.snapshot(gone)).isNull();
    assertThat(SlicesCommitterOperator.validationBase(table, start, own)).isEqualTo(start);
  }

  /** Appends one row dated {@code day} of January 2026; returns its snapshot. */
  private long commit(int day) {
    TableRows.append(
        table,
        TableRows.row(
            table,
            Map.of(
                "order_id",
                (long) day,
                "customer_id",
                1L,
                "amount",
                new BigDecimal("1.00"),
                "order_date",
                LocalDate.of(2026, 1, day))));
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }
}
