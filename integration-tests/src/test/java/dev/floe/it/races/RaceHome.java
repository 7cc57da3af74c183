package dev.floe.it.races;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.cli.FloeMain;
import dev.floe.it.BinFloe;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * One embedded Floe home (the SQLite JDBC catalog and the local warehouse under {@code work/.floe})
 * shared by every bin/floe process of a scenario and by this JVM, which changes the staging table
 * through the Iceberg API and reads the final state through Iceberg itself: rows, not Floe's
 * lineage.
 */
final class RaceHome implements AutoCloseable {
  static final String FACT = "sales.fact_orders";
  static final String STAGING = "sales.staging_orders";

  /** The staging table as Iceberg's scan log names it (catalog "floe"). */
  static final String STAGING_SCANNED = "floe." + STAGING;

  final Path work;
  final Path home;
  final String job;
  private final Catalog catalog;

  RaceHome(Path work) {
    this.work = work;
    this.home = work.resolve(".floe");
    this.job = BinFloe.repoRoot().resolve("examples/jobs/fact_orders_daily.yaml").toString();
    floe("tables", "apply", BinFloe.repoRoot().resolve("examples/tables").toString());
    this.catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
  }

  @Override
  public void close() {
    Catalogs.close(catalog);
  }

  /** `floe args --home home` in this JVM (set-up only: the races run bin/floe). */
  String floe(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--home", home.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as("floe %s%n%s%s", all, out, err).isZero();
    return out.toString();
  }

  /** `floe args --json --home home` in this JVM, its output parsed. */
  JsonNode floeJson(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add("--json");
    try {
      return new ObjectMapper().readTree(floe(all.toArray(String[]::new)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code bin/floe args --home home} in the background. */
  FloeProcess start(String name, long t0, String... args) {
    return FloeProcess.start(name, work, home, t0, args);
  }

  Table table(String name) {
    return Catalogs.loadTable(catalog, name);
  }

  // ---- the source

  /** An order row of staging_orders (the same columns as fact_orders). */
  record Order(long id, long customer, String amount, LocalDate day) {
    String text() {
      return id + "|" + customer + "|" + new BigDecimal(amount).setScale(2) + "|" + day;
    }
  }

  /** Replaces {@code day}'s rows of the staging table (a correction upstream); the new snapshot. */
  long replaceStaging(LocalDate day, List<Order> orders) {
    Table staging = table(STAGING);
    var overwrite = staging.newOverwrite().overwriteByRowFilter(onDay(day));
    if (!orders.isEmpty()) {
      overwrite.addFile(write(staging, orders));
    }
    overwrite.commit();
    return staging.currentSnapshot().snapshotId();
  }

  /** Appends rows to the staging table (late rows upstream); the new snapshot. */
  long appendStaging(List<Order> orders) {
    Table staging = table(STAGING);
    staging.newAppend().appendFile(write(staging, orders)).commit();
    return staging.currentSnapshot().snapshotId();
  }

  private static DataFile write(Table table, List<Order> orders) {
    Record[] rows =
        orders.stream()
            .map(
                o ->
                    TableRows.row(
                        table,
                        Map.of(
                            "order_id", o.id(),
                            "customer_id", o.customer(),
                            "amount", new BigDecimal(o.amount()).setScale(2),
                            "order_date", o.day())))
            .toArray(Record[]::new);
    return TableRows.write(table, rows);
  }

  /**
   * The staging table's rows of {@code day} at each snapshot of its current history, oldest first:
   * what a run that read that snapshot had to load.
   */
  LinkedHashMap<Long, List<String>> stagingVersions(LocalDate day) {
    Table staging = table(STAGING);
    List<Snapshot> history = new ArrayList<>();
    SnapshotUtil.currentAncestors(staging).forEach(history::add);
    Collections.reverse(history);
    LinkedHashMap<Long, List<String>> versions = new LinkedHashMap<>();
    for (Snapshot s : history) {
      versions.put(s.snapshotId(), rows(staging, s.snapshotId(), onDay(day)));
    }
    return versions;
  }

  // ---- the target

  /** fact_orders' rows of {@code day} at its current snapshot, sorted: id|customer|amount|day. */
  List<String> factRows(LocalDate day) {
    Table fact = table(FACT);
    Snapshot head = fact.currentSnapshot();
    return head == null ? List.of() : rows(fact, head.snapshotId(), onDay(day));
  }

  /** The data files of fact_orders' {@code day} at its current snapshot. */
  int factDataFiles(LocalDate day) {
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table(FACT).newScan().filter(onDay(day)).planFiles()) {
      for (FileScanTask ignored : tasks) {
        files++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** order_ids that occur more than once in the whole of fact_orders (main). */
  List<Long> duplicateKeys() {
    Table fact = table(FACT);
    if (fact.currentSnapshot() == null) {
      return List.of();
    }
    Map<Long, Integer> counts = new HashMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(fact).build()) {
      records.forEach(r -> counts.merge((Long) r.getField("order_id"), 1, Integer::sum));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counts.entrySet().stream()
        .filter(e -> e.getValue() > 1)
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  /** Snapshots of fact_orders on main, oldest first, as "id op run-id@ms". */
  List<Snapshot> factHistory() {
    Table fact = table(FACT);
    if (fact.currentSnapshot() == null) {
      return List.of();
    }
    List<Snapshot> history = new ArrayList<>();
    SnapshotUtil.currentAncestors(fact).forEach(history::add);
    Collections.reverse(history);
    return history;
  }

  static Expression onDay(LocalDate day) {
    return Expressions.equal("order_date", day.toString());
  }

  private static List<String> rows(Table table, long snapshotId, Expression filter) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(snapshotId).where(filter).build()) {
      for (Record r : records) {
        rows.add(
            new Order(
                    (Long) r.getField("order_id"),
                    (Long) r.getField("customer_id"),
                    r.getField("amount").toString(),
                    (LocalDate) r.getField("order_date"))
                .text());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Collections.sort(rows);
    return rows;
  }

  /** A short, stable label of a row set for the printed tables: rows and a digest. */
  static String label(List<String> rows) {
    return rows.size()
        + "r#"
        + String.format("%08x", String.join(";", rows).hashCode()).substring(0, 6);
  }

  static String joined(Map<?, ?> map) {
    return map.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
