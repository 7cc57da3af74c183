package dev.floe.flink.maintain;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The gain of sort and z-order compaction for point queries (docs/benchmarks.md): one day of many
 * small files whose order ids are shuffled, compacted with binpack, sort (by order_id) and zorder
 * (customer_id, order_id) into the same number of files; for each, the data files Iceberg's scan
 * planning returns ({@code table.newScan().filter(...).planFiles()}) for point queries on order_id
 * and on customer_id, before and after. Not a test: run it with {@code java -cp} (see the doc).
 *
 * <p>Arguments: {@code [files] [rowsPerFile] [outputFiles] [queries]}, default 200 1000 20 50.
 */
public final class PointQueryFilesBench {
  private static final String DAY = "2026-10-03";

  private PointQueryFilesBench() {}

  public static void main(String[] args) throws IOException {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int rowsPerFile = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    int outputFiles = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int queries = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    long rows = (long) files * rowsPerFile;
    Path home = Files.createTempDirectory("floe-point-query-bench");
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    System.out.printf(
        Locale.ROOT,
        "%d rows in %d files of %d rows (order ids shuffled), compacted with target file size ="
            + " input bytes / %d; %d point queries per column%n%n",
        rows,
        files,
        rowsPerFile,
        outputFiles,
        queries);
    System.out.println(
        "| strategy | data files before -> after | files planned for order_id = X (mean)"
            + " | files planned for customer_id = C (mean) | compaction s | content hash |");
    System.out.println("|---|---|---|---|---|---|");
    Catalog catalog = Catalogs.open(config);
    for (String strategy : List.of("binpack", "sort", "zorder")) {
      String name = "bench.t_" + strategy;
      Table table;
      {
        if (!((SupportsNamespaces) catalog).namespaceExists(Namespace.of("bench"))) {
          ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
        }
        table =
            catalog.createTable(
                TableIdentifier.of("bench", "t_" + strategy),
                SmallFiles.SCHEMA,
                SmallFiles.BY_DAY,
                Map.of("format-version", "2"));
        table.replaceSortOrder().asc("order_id").commit();
        table
            .updateProperties()
            .set(MaintenancePolicy.STRATEGY, strategy)
            .set(MaintenancePolicy.ZORDER_COLUMNS, "customer_id,order_id")
            .commit();
        if (!strategy.equals("zorder")) {
          table.updateProperties().remove(MaintenancePolicy.ZORDER_COLUMNS).commit();
        }
        Unsorted.append(table, DAY, files, rowsPerFile, 42);
      }
      long bytes = Deletes.dataFiles(table).stream().mapToLong(f -> f.fileSizeInBytes()).sum();
      // Outputs roll at the target (checked every 1000 rows); every input is below it.
      long target = Math.max(bytes / outputFiles, 1);
      ContentHash before = TableContent.hash(table);
      int filesBefore = Deletes.dataFiles(table).size();
      double orderBefore = meanFiles(table, "order_id", rows, queries);
      double customerBefore = meanFiles(table, "customer_id", rows, queries);
      long started = System.nanoTime();
      CompactionResult result =
          Compaction.of(config, name).slices(List.of(DAY)).targetFileSizeBytes(target).commit();
      double seconds = (System.nanoTime() - started) / 1e9;
      if (result.exitCode() != 0) {
        throw new IllegalStateException("Compaction failed: " + result);
      }
      table.refresh();
      boolean same = TableContent.hash(table).equals(before);
      System.out.printf(
          Locale.ROOT,
          "| %s | %d -> %d | %.1f -> %.1f | %.1f -> %.1f | %.1f | %s |%n",
          strategy,
          filesBefore,
          Deletes.dataFiles(table).size(),
          orderBefore,
          meanFiles(table, "order_id", rows, queries),
          customerBefore,
          meanFiles(table, "customer_id", rows, queries),
          seconds,
          same ? "unchanged" : "CHANGED");
    }
    Catalogs.close(catalog);
  }

  /** Mean data files planned for {@code column = v}, over {@code queries} values. */
  private static double meanFiles(Table table, String column, long max, int queries) {
    Random random = new Random(7); // the same values before and after
    long total = 0;
    for (int q = 0; q < queries; q++) {
      long value =
          column.equals("order_id")
              ? 1 + (long) (random.nextDouble() * max)
              : random.nextInt((int) max);
      total += planned(table, Expressions.equal(column, value));
    }
    return (double) total / queries;
  }

  private static int planned(Table table, Expression filter) {
    int count = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(filter).planFiles()) {
      for (FileScanTask ignored : tasks) {
        count++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count;
  }
}
