package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;

/**
 * Limit 2 (issue 15, goal 1): what a load must at least do, in plain Java. The day's rows are read
 * from the staging table with Iceberg's Parquet reader (generic records; the scan planned with the
 * day filter, its files spread over the threads) and written with Iceberg's Parquet appender, 2
 * threads, one overwrite commit. A row of another day fails the load (the cheap part of Floe's
 * slice guard); no checks, no hash, no lineage.
 */
final class ReadWritePath implements WritePath {
  static final String NAME = "read + write, plain Java (limit)";

  private final CatalogConfig catalog;
  private final String source;
  private final String target;
  private final LocalDate day;
  private final int threads;
  private final long rows;
  private Long previousSnapshot;

  ReadWritePath(
      CatalogConfig catalog, String source, String target, LocalDate day, int threads, long rows) {
    this.catalog = catalog;
    this.source = source;
    this.target = target;
    this.day = day;
    this.threads = threads;
    this.rows = rows;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public String entryMethod() {
    return ReadWritePath.class.getName() + ".execute";
  }

  @Override
  public void execute() {
    Catalog c = Catalogs.open(catalog);
    try {
      Table staging = Catalogs.loadTable(c, source);
      Table table = Catalogs.loadTable(c, target);
      Expression slice = Expressions.equal("order_date", day.toString());
      List<FileScanTask> tasks = new ArrayList<>();
      try (CloseableIterable<FileScanTask> planned = staging.newScan().filter(slice).planFiles()) {
        planned.forEach(tasks::add);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan a scan of " + source, e);
      }
      Schema schema = staging.schema();
      AppenderLoad.run(
          "read + write",
          table,
          day,
          threads,
          (part, parts, writer) -> {
            long count = 0;
            for (int t = part; t < tasks.size(); t += parts) {
              FileScanTask task = tasks.get(t);
              try (CloseableIterable<Record> records =
                  Parquet.read(staging.io().newInputFile(task.file().location()))
                      .project(schema)
                      .filter(task.residual())
                      .createReaderFunc(
                          fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
                      .build()) {
                for (Record record : records) {
                  if (!day.equals(record.get(3))) {
                    throw new IllegalStateException(
                        "Cannot load " + target + ": a row of another day: " + record);
                  }
                  writer.write(record);
                  count++;
                }
              }
            }
            return count;
          });
    } finally {
      Catalogs.close(c);
    }
  }

  @Override
  public void verify() {
    previousSnapshot = AppenderPaths.verify(catalog, target, name(), previousSnapshot, rows);
  }
}
