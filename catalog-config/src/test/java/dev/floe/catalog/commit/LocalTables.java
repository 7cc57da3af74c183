package dev.floe.catalog.commit;

import dev.floe.catalog.testing.EmbeddedCatalog;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * A small table partitioned by an int {@code p}, and data files for it that exist only in its
 * metadata: what a test of where a commit does its manifest work commits.
 */
final class LocalTables {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "p", Types.IntegerType.get()));
  private static final PartitionSpec BY_P = PartitionSpec.builderFor(SCHEMA).identity("p").build();

  private LocalTables() {}

  /** {@code t.events}, with one data file {@code a} in each of partitions 0 to n − 1. */
  static Table withOneFilePerPartition(EmbeddedCatalog catalog, int partitions) {
    Table table = catalog.create("t.events", SCHEMA, BY_P);
    for (int p = 0; p < partitions; p++) {
      table.newAppend().appendFile(file(table, p, "a")).commit();
    }
    return table;
  }

  static String path(Table table, int p, String name) {
    return table.location() + "/data/p=" + p + "/" + name + ".parquet";
  }

  /** A data file of one row named {@code name} in partition {@code p}. */
  static DataFile file(Table table, int p, String name) {
    return DataFiles.builder(table.spec())
        .withPath(path(table, p, name))
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .withPartitionPath("p=" + p)
        .build();
  }
}
