package dev.floe.catalog.config;

import java.nio.file.Path;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Run in its own JVM by {@link LocalReadsFileIOTest}: loads table {@code args[1]} of the embedded
 * catalog in {@code args[0]} and plans a scan of it, as a metadata command reads a table, then
 * prints the number of files planned and of Hadoop file systems this process created.
 */
public final class LocalReadsProbe {
  private LocalReadsProbe() {}

  public static void main(String[] args) throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(Path.of(args[0])));
    int files = 0;
    try {
      Table table = Catalogs.loadTable(catalog, args[1]);
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          files++;
        }
      }
    } finally {
      Catalogs.close(catalog);
    }
    // Every file system Hadoop creates registers its statistics.
    System.out.println("files=" + files + " filesystems=" + FileSystem.getAllStatistics().size());
  }
}
