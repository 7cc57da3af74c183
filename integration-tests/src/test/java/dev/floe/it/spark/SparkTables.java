package dev.floe.it.spark;

/** Spark SQL for the example tables, shared by the tests where Spark writes them. */
final class SparkTables {
  private SparkTables() {}

  /** Makes Spark's DELETE, UPDATE and MERGE on {@code table} write position deletes. */
  static String mergeOnRead(String table) {
    return "ALTER TABLE "
        + table
        + " SET TBLPROPERTIES ('write.delete.mode'='merge-on-read',"
        + " 'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')";
  }

  /** Makes them rewrite the data files instead (Iceberg's default, said explicitly). */
  static String copyOnWrite(String table) {
    return "ALTER TABLE "
        + table
        + " SET TBLPROPERTIES ('write.delete.mode'='copy-on-write',"
        + " 'write.update.mode'='copy-on-write', 'write.merge.mode'='copy-on-write')";
  }

  /** The seed document's three staging rows. */
  static String seedRows(String table) {
    return "INSERT INTO "
        + table
        + " VALUES (1, 10, 50.00, DATE '2026-10-03'), (2, 11, 20.00, DATE '2026-10-03'),"
        + " (3, 12, 75.00, DATE '2026-10-04')";
  }

  /** Live position-delete files of {@code table} (Spark's metadata table). */
  static String positionDeleteFiles(String table) {
    return "SELECT count(*) FROM " + table + ".delete_files WHERE content = 1";
  }
}
