package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import java.time.LocalDate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.GenericRecord;

/**
 * Limit 1 (issue 15, goal 1): the staging rows generated again from memory ({@link
 * StagingData#fill}, the same rows) and written with Iceberg's Parquet appender, 2 threads, one
 * overwrite commit. It only writes: nothing is read.
 */
final class RawAppenderPath implements WritePath {
  static final String NAME = "raw appender (limit)";

  private final CatalogConfig catalog;
  private final String target;
  private final LocalDate day;
  private final int threads;
  private final long rows;
  private Long previousSnapshot;

  RawAppenderPath(CatalogConfig catalog, String target, LocalDate day, int threads, long rows) {
    this.catalog = catalog;
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
    return RawAppenderPath.class.getName() + ".execute";
  }

  @Override
  public void execute() {
    Catalog c = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(c, target);
      AppenderLoad.run(
          "raw appender",
          table,
          day,
          threads,
          (part, parts, writer) -> {
            // The same split as the staging files: part p writes rows [N*p/parts, N*(p+1)/parts).
            long from = rows * part / parts;
            long to = rows * (part + 1) / parts;
            GenericRecord record = GenericRecord.create(table.schema());
            for (long i = from; i < to; i++) {
              StagingData.fill(record, i, day);
              writer.write(record);
            }
            return to - from;
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
