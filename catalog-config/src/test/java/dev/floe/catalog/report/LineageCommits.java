package dev.floe.catalog.report;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * Builds report test tables the way Floe runs leave them: one overwrite commit per slice carrying
 * lineage summary keys (as the committer writes them), appends to a source table, and revert-like
 * commits with {@code floe.reverts}. Public so flink-jobs' CLI tests can use it too.
 */
public final class LineageCommits {
  /** {@code id long, d date}, partitioned by {@code d}: a target or a source. */
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  private static long nextId = 1;

  private LineageCommits() {}

  /** Creates {@code name} (and its namespace) with {@link #SCHEMA} partitioned by day. */
  public static Table create(Catalog catalog, String name, Map<String, String> properties) {
    TableIdentifier id = TableIdentifier.parse(name);
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    if (!namespaces.namespaceExists(id.namespace())) {
      namespaces.createNamespace(Namespace.of(id.namespace().levels()));
    }
    Map<String, String> all = new HashMap<>(properties);
    all.put("format-version", "2");
    return catalog.createTable(
        id, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build(), all);
  }

  /** The day slice on {@code d}. */
  public static Slice day(String day) {
    LocalDate date = LocalDate.parse(day);
    return new Slice(
        "d",
        Slice.ColumnKind.DATE,
        SliceUnit.DAY,
        date.atStartOfDay(),
        date.plusDays(1).atStartOfDay());
  }

  /** The month slice on {@code d}, e.g. {@code month("2026-10")}. */
  public static Slice month(String month) {
    LocalDate first = LocalDate.parse(month + "-01");
    return new Slice(
        "d",
        Slice.ColumnKind.DATE,
        SliceUnit.MONTH,
        first.atStartOfDay(),
        first.plusMonths(1).atStartOfDay());
  }

  /**
   * Commits a Floe-like load of one day: replaces the slice with {@code rows} new rows and records
   * lineage that read {@code source} at its current snapshot (none when source is null).
   *
   * @return the committed snapshot id
   */
  public static long load(
      Table target, String day, String runId, String job, Table source, int rows) {
    return load(target, day, runId, job, source, rows, null);
  }

  /** {@link #load} onto a branch (null for main), e.g. an audit branch. */
  public static long load(
      Table target, String day, String runId, String job, Table source, int rows, String branch) {
    return load(
        target, day, runId, job, rows, branch, source == null ? List.of() : List.of(source));
  }

  /** {@link #load} of a run that read several sources. */
  public static long load(
      Table target,
      String day,
      String runId,
      String job,
      int rows,
      String branch,
      List<Table> sourceTables) {
    return load(target, day, runId, job, rows, branch, sourceTables, null);
  }

  /** {@link #load} of one slice of a backfill ({@code floe.backfill-id}); null for none. */
  public static long load(
      Table target,
      String day,
      String runId,
      String job,
      int rows,
      String branch,
      List<Table> sourceTables,
      String backfillId) {
    Slice slice = day(day);
    Record[] records = new Record[rows];
    ContentHash hash = ContentHash.empty();
    RecordHasher hasher = new RecordHasher(target.schema());
    for (int i = 0; i < rows; i++) {
      records[i] = TableRows.row(target, Map.of("id", nextId++, "d", LocalDate.parse(day)));
      hasher.add(records[i], hash);
    }
    Map<String, Long> sources = new HashMap<>();
    for (Table source : sourceTables) {
      source.refresh();
      // Iceberg names a table <catalog>.<namespace>.<table>; lineage records <namespace>.<table>.
      String name = source.name().substring(source.name().indexOf('.') + 1);
      sources.put(name, source.currentSnapshot().snapshotId());
    }
    Lineage lineage =
        new Lineage(
            "key-" + job + "-" + day,
            runId,
            job,
            "overwrite",
            slice.label(),
            "0.1.0-test",
            rows,
            hash.encode(),
            sources,
            backfillId);
    OverwriteFiles overwrite = target.newOverwrite().overwriteByRowFilter(slice.toExpression());
    if (rows > 0) {
      overwrite.addFile(TableRows.write(target, records));
    }
    lineage.toSummary().forEach(overwrite::set);
    if (branch != null) {
      overwrite.toBranch(branch);
    }
    overwrite.commit();
    target.refresh();
    return branch == null
        ? target.currentSnapshot().snapshotId()
        : target.refs().get(branch).snapshotId();
  }

  /**
   * A revert-like commit (what {@code floe revert} leaves): re-commits {@code rows} rows for the
   * day with {@code floe.reverts=<revertedRun>} and the revert's own run id, mode and slice.
   */
  public static long revert(Table target, String day, String revertedRun, int rows) {
    Slice slice = day(day);
    Record[] records = new Record[rows];
    for (int i = 0; i < rows; i++) {
      records[i] = TableRows.row(target, Map.of("id", nextId++, "d", LocalDate.parse(day)));
    }
    OverwriteFiles overwrite = target.newOverwrite().overwriteByRowFilter(slice.toExpression());
    if (rows > 0) {
      overwrite.addFile(TableRows.write(target, records));
    }
    // The keys `floe revert` writes (see snapshot/Revert): its own run id, mode and slice too.
    overwrite
        .set(LineageKeys.REVERTS, revertedRun)
        .set(LineageKeys.RUN_ID, "revert-of-" + revertedRun)
        .set(LineageKeys.MODE, "revert")
        .set(LineageKeys.JOB, "orders_daily")
        .set(LineageKeys.SLICE, slice.label())
        .commit();
    target.refresh();
    return target.currentSnapshot().snapshotId();
  }

  /**
   * A load of all of October 2026 as one slice (run {@code m1} of {@code job}, one row on Oct 2),
   * from {@code source} as it is now (null: a run that read none): a month run over the day runs of
   * the same table.
   */
  public static void loadOctober(Table target, String job, Table source) {
    Slice october = month("2026-10");
    Map<String, Long> sources = new HashMap<>();
    if (source != null) {
      source.refresh();
      // Iceberg names a table <catalog>.<namespace>.<table>; lineage records <namespace>.<table>.
      sources.put(
          source.name().substring(source.name().indexOf('.') + 1),
          source.currentSnapshot().snapshotId());
    }
    OverwriteFiles overwrite =
        target
            .newOverwrite()
            .overwriteByRowFilter(october.toExpression())
            .addFile(
                TableRows.write(
                    target,
                    TableRows.row(target, Map.of("id", 99L, "d", LocalDate.parse("2026-10-02")))));
    new Lineage(
            "k-october",
            "m1",
            job,
            "overwrite",
            october.label(),
            "0.1.0-test",
            1,
            "1:0",
            sources,
            null)
        .toSummary()
        .forEach(overwrite::set);
    overwrite.commit();
  }

  /** Appends {@code rows} rows of one day to a source table; returns the new snapshot id. */
  public static long append(Table source, String day, int rows) {
    Record[] records = new Record[rows];
    for (int i = 0; i < rows; i++) {
      records[i] = TableRows.row(source, Map.of("id", nextId++, "d", LocalDate.parse(day)));
    }
    TableRows.append(source, records);
    source.refresh();
    return source.currentSnapshot().snapshotId();
  }
}
