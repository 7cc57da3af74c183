package dev.floe.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark writes the tables, Floe works on them, and Spark checks the result: sources appended to and
 * rewritten with merge-on-read MERGE / UPDATE / DELETE (position deletes), the seed's fact example
 * loaded from a staging table Spark wrote, and a target Spark wrote (appends and copy-on-write
 * MERGE / UPDATE / DELETE) that Floe then runs, reruns, compacts, reverts and rolls back on. Every
 * comparison is of row multisets as Spark reads them.
 */
@ExtendWith(SharedSpark.class)
class FloeOnSparkWrittenTablesITCase {
  private static final String DAY = "2026-10-03";
  private static final String OTHER_DAY = "2026-10-04";
  private static final String ON_DAY = "order_date = DATE '2026-10-03'";
  private static final String ON_OTHER_DAY = "order_date = DATE '2026-10-04'";

  @Test
  void theSeedFactExampleLoadsFromAStagingTableSparkWroteAndRewroteWithPositionDeletes(
      @TempDir Path work, SparkEngine spark) {
    FloeHome home = new FloeHome(work, spark);
    Path examples = FloeHome.examples();
    String job = examples.resolve("jobs/fact_orders_daily.yaml").toString();
    String staging = home.inSpark("sales.staging_orders");
    home.ok("tables", "apply", examples.resolve("tables").toString());
    spark.sql(SparkTables.mergeOnRead(staging));
    spark.sql(SparkTables.seedRows(staging));

    assertThat(home.ok("run", job, "--slice", DAY)).contains("committed");
    // The seed document's answer, through Spark.
    assertThat(
            spark.sql(
                "SELECT count(*) AS rows_for_day, sum(amount) AS total FROM "
                    + home.inSpark("sales.fact_orders")))
        .containsExactly("long:2|decimal:7000e-2");
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY))
        .isEqualTo(home.sparkRows("sales.staging_orders", ON_DAY))
        .isEqualTo(home.floeRows("sales.fact_orders"));
    assertThat(home.ok("run", job, "--slice", DAY)).contains("no-op");

    // Spark rewrites the day merge-on-read: position deletes, no data file rewritten.
    spark.sql("UPDATE " + staging + " SET amount = 55.00 WHERE order_id = 1");
    spark.sql("DELETE FROM " + staging + " WHERE order_id = 2");
    spark.sql(
        "MERGE INTO "
            + staging
            + " t USING (SELECT * FROM VALUES (7L, 17L, CAST(7.77 AS DECIMAL(10,2)),"
            + " DATE '2026-10-03'), (3L, 12L, CAST(80.00 AS DECIMAL(10,2)), DATE '2026-10-04')"
            + " AS s(order_id, customer_id, amount, order_date)) s ON t.order_id = s.order_id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertThat(spark.sql(SparkTables.positionDeleteFiles(staging))).isNotEqualTo(List.of("long:0"));
    assertThat(home.sparkRows("sales.staging_orders", ON_DAY))
        .containsExactly(
            "long:1|long:10|decimal:5500e-2|date:2026-10-03",
            "long:7|long:17|decimal:777e-2|date:2026-10-03");

    assertThat(home.ok("run", job, "--slice", DAY)).contains("committed");
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY))
        .isEqualTo(home.sparkRows("sales.staging_orders", ON_DAY));
    assertThat(home.ok("run", job, "--slice", DAY)).contains("no-op");
    assertThat(home.ok("run", job, "--slice", OTHER_DAY)).contains("committed");
    assertThat(home.sparkRows("sales.fact_orders"))
        .isEqualTo(home.sparkRows("sales.staging_orders"))
        .isEqualTo(home.floeRows("sales.fact_orders"));

    // A late row Spark appends is picked up by the rerun, and only for its day.
    List<String> otherDay = home.sparkRows("sales.fact_orders", ON_OTHER_DAY);
    spark.sql("INSERT INTO " + staging + " VALUES (8, 18, 8.88, DATE '2026-10-03')");
    assertThat(home.ok("run", job, "--slice", DAY)).contains("committed");
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY))
        .isEqualTo(home.sparkRows("sales.staging_orders", ON_DAY))
        .hasSize(3);
    assertThat(home.sparkRows("sales.fact_orders", ON_OTHER_DAY)).isEqualTo(otherDay);
  }

  @Test
  void floeRunsRerunsCompactsRevertsAndRollsBackOnATargetSparkWrote(
      @TempDir Path work, SparkEngine spark) {
    FloeHome home = new FloeHome(work, spark);
    Path examples = FloeHome.examples();
    String job = examples.resolve("jobs/fact_orders_daily.yaml").toString();
    String staging = home.inSpark("sales.staging_orders");
    String fact = home.inSpark("sales.fact_orders");
    home.ok("tables", "apply", examples.resolve("tables").toString());
    spark.sql(SparkTables.seedRows(staging));
    spark.sql(SparkTables.copyOnWrite(fact));
    // Spark writes the target: three appends (three small files a day), then copy-on-write
    // UPDATE, DELETE and MERGE.
    for (int batch = 0; batch < 3; batch++) {
      spark.sql(
          "INSERT INTO "
              + fact
              + " VALUES ("
              + (100 + batch)
              + ", 1, 1.00, DATE '2026-10-03'), ("
              + (200 + batch)
              + ", 2, 2.00, DATE '2026-10-04')");
    }
    spark.sql("UPDATE " + fact + " SET amount = 9.99 WHERE order_id = 201");
    spark.sql("DELETE FROM " + fact + " WHERE order_id = 202");
    spark.sql(
        "MERGE INTO "
            + fact
            + " t USING (SELECT 203L AS order_id, 3L AS customer_id,"
            + " CAST(3.33 AS DECIMAL(10,2)) AS amount, DATE '2026-10-04' AS order_date) s"
            + " ON t.order_id = s.order_id WHEN NOT MATCHED THEN INSERT *");
    assertThat(spark.sql(SparkTables.positionDeleteFiles(fact))).containsExactly("long:0");
    List<String> sparkDay = home.sparkRows("sales.fact_orders", ON_DAY);
    List<String> sparkOtherDay = home.sparkRows("sales.fact_orders", ON_OTHER_DAY);
    assertThat(sparkDay).hasSize(3);
    assertThat(sparkOtherDay)
        .containsExactly(
            "long:200|long:2|decimal:200e-2|date:2026-10-04",
            "long:201|long:2|decimal:999e-2|date:2026-10-04",
            "long:203|long:3|decimal:333e-2|date:2026-10-04");

    // Floe's run replaces the day Spark wrote, and only that day; the rerun is a no-op.
    String runId = home.okJson("run", job, "--slice", DAY).get("run_id").asText();
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY))
        .isEqualTo(home.sparkRows("sales.staging_orders", ON_DAY));
    assertThat(home.sparkRows("sales.fact_orders", ON_OTHER_DAY)).isEqualTo(sparkOtherDay);
    assertThat(home.ok("run", job, "--slice", DAY)).contains("no-op");
    List<String> afterRun = home.sparkRows("sales.fact_orders");
    long afterRunSnapshot =
        home.withTable("sales.fact_orders", t -> t.currentSnapshot().snapshotId());

    // Compaction of the day Spark wrote in many small files: the same rows, fewer files.
    long filesBefore = dataFiles(spark, fact, ON_OTHER_DAY);
    assertThat(home.ok("maintain", "sales.fact_orders", "--compact", "--slice", OTHER_DAY))
        .isNotEmpty();
    assertThat(home.sparkRows("sales.fact_orders")).isEqualTo(afterRun);
    assertThat(dataFiles(spark, fact, ON_OTHER_DAY)).isLessThan(filesBefore).isEqualTo(1);

    // Reverting Floe's run brings back exactly what Spark had written for the day.
    home.ok("revert", "sales.fact_orders", "--run", runId);
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY)).isEqualTo(sparkDay);
    assertThat(home.sparkRows("sales.fact_orders", ON_OTHER_DAY)).isEqualTo(sparkOtherDay);
    assertThat(home.floeRows("sales.fact_orders")).isEqualTo(home.sparkRows("sales.fact_orders"));

    // And a rollback to the run's snapshot brings the run back.
    home.ok("rollback", "sales.fact_orders", "--to-snapshot", Long.toString(afterRunSnapshot));
    assertThat(home.sparkRows("sales.fact_orders")).isEqualTo(afterRun);
  }

  /** Live data files of the rows matching {@code where} (a partition of the example table). */
  static long dataFiles(SparkEngine spark, String table, String where) {
    String count =
        spark.sql("SELECT count(*) FROM " + table + ".data_files WHERE partition." + where).get(0);
    return Long.parseLong(count.substring("long:".length()));
  }
}
