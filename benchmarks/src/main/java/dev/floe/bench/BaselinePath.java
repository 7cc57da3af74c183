package dev.floe.bench;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.flink.session.FlinkSessions;
import java.util.Map;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * The path Floe replaces: Iceberg's own Flink SQL sink, {@code INSERT OVERWRITE target SELECT ...
 * WHERE order_date = day}, through the same catalog, session settings and parallelism. Its Flink
 * configuration is left at the defaults a user would have (no object-reuse tuning), and each run
 * creates its environment like {@link dev.floe.flink.job.SliceJob} does, so both pay the same
 * set-up.
 */
final class BaselinePath implements WritePath {
  private final CatalogConfig catalog;
  private final String target;
  private final String statement;
  private final int parallelism;
  private final long rows;
  private Long previousSnapshot;

  /**
   * @param hint a read hint for the staging table (same as Floe's query), or empty
   */
  BaselinePath(
      CatalogConfig catalog, String target, String hint, String day, int parallelism, long rows) {
    this.catalog = catalog;
    this.target = target;
    this.statement =
        "INSERT OVERWRITE "
            + target
            + " SELECT order_id, customer_id, amount, order_date FROM "
            + BenchTables.STAGING
            + hint
            + " WHERE order_date = DATE '"
            + day
            + "'";
    this.parallelism = parallelism;
    this.rows = rows;
  }

  @Override
  public String name() {
    return "iceberg sql overwrite";
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public String entryMethod() {
    return BaselinePath.class.getName() + ".execute";
  }

  @Override
  public void execute() throws Exception {
    StreamTableEnvironment sql =
        FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(parallelism), catalog);
    sql.executeSql(statement).await();
  }

  @Override
  public void verify() {
    Catalog c = Catalogs.open(catalog);
    try {
      Table table = Catalogs.loadTable(c, target);
      Snapshot head = table.currentSnapshot();
      LoadCheck.verify(
          name(),
          head == null ? null : head.snapshotId(),
          previousSnapshot,
          head == null ? Map.of() : head.summary(),
          rows);
      previousSnapshot = head.snapshotId();
    } finally {
      Catalogs.close(c);
    }
  }
}
