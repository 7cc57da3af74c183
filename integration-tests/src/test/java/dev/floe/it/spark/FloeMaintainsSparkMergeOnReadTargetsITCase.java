package dev.floe.it.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target Spark wrote merge-on-read (its DELETE and UPDATE leave position-delete files), then
 * maintained by Floe (issue 14, item 2): compaction rewrites the slice applying the deletes and
 * leaves no delete file live for it, and reverting a Floe run whose commit removed Spark's data and
 * delete files brings back exactly the rows Spark saw. Checked through Spark.
 */
@ExtendWith(SharedSpark.class)
class FloeMaintainsSparkMergeOnReadTargetsITCase {
  private static final String DAY = "2026-10-03";
  private static final String OTHER_DAY = "2026-10-04";
  private static final String ON_DAY = "order_date = DATE '2026-10-03'";
  private static final String ON_OTHER_DAY = "order_date = DATE '2026-10-04'";

  /** The example tables, the target written by Spark in appends and merge-on-read changes. */
  private static FloeHome targetWithPositionDeletes(Path work, SparkEngine spark) {
    FloeHome home = new FloeHome(work, spark);
    String fact = home.inSpark("sales.fact_orders");
    home.ok("tables", "apply", FloeHome.examples().resolve("tables").toString());
    spark.sql(SparkTables.seedRows(home.inSpark("sales.staging_orders")));
    spark.sql(SparkTables.mergeOnRead(fact));
    for (int batch = 0; batch < 3; batch++) {
      spark.sql(
          "INSERT INTO "
              + fact
              + " VALUES ("
              + (100 + batch)
              + ", 1, 1.00, DATE '2026-10-03'), ("
              + (200 + batch)
              + ", 2, 2.00, DATE '2026-10-04'), ("
              + (300 + batch)
              + ", 3, 3.00, DATE '2026-10-04')");
    }
    spark.sql("DELETE FROM " + fact + " WHERE order_id IN (101, 201)");
    spark.sql("UPDATE " + fact + " SET amount = 9.99 WHERE order_id IN (102, 302)");
    assertThat(positionDeleteFiles(spark, fact, ON_DAY)).isPositive();
    assertThat(positionDeleteFiles(spark, fact, ON_OTHER_DAY)).isPositive();
    return home;
  }

  @Test
  void compactionAppliesSparksPositionDeletesAndKeepsEveryRow(
      @TempDir Path work, SparkEngine spark) {
    FloeHome home = targetWithPositionDeletes(work, spark);
    String fact = home.inSpark("sales.fact_orders");
    List<String> before = home.sparkRows("sales.fact_orders");
    assertThat(home.sparkRows("sales.fact_orders", ON_OTHER_DAY))
        .containsExactly(
            "long:200|long:2|decimal:200e-2|date:2026-10-04",
            "long:202|long:2|decimal:200e-2|date:2026-10-04",
            "long:300|long:3|decimal:300e-2|date:2026-10-04",
            "long:301|long:3|decimal:300e-2|date:2026-10-04",
            "long:302|long:3|decimal:999e-2|date:2026-10-04");

    home.ok("maintain", "sales.fact_orders", "--compact", "--slice", OTHER_DAY);

    assertThat(home.sparkRows("sales.fact_orders")).isEqualTo(before);
    assertThat(home.floeRows("sales.fact_orders")).isEqualTo(before);
    assertThat(positionDeleteFiles(spark, fact, ON_OTHER_DAY)).isZero();
    assertThat(FloeOnSparkWrittenTablesITCase.dataFiles(spark, fact, ON_OTHER_DAY)).isEqualTo(1);
    // The other day was not part of the compaction.
    assertThat(positionDeleteFiles(spark, fact, ON_DAY)).isPositive();
  }

  @Test
  void revertingARunOverSparksPositionDeletesRestoresWhatSparkSaw(
      @TempDir Path work, SparkEngine spark) {
    FloeHome home = targetWithPositionDeletes(work, spark);
    List<String> sparkDay = home.sparkRows("sales.fact_orders", ON_DAY);
    List<String> sparkOtherDay = home.sparkRows("sales.fact_orders", ON_OTHER_DAY);
    assertThat(sparkDay)
        .containsExactly(
            "long:100|long:1|decimal:100e-2|date:2026-10-03",
            "long:102|long:1|decimal:999e-2|date:2026-10-03");
    String job = FloeHome.examples().resolve("jobs/fact_orders_daily.yaml").toString();

    // The run replaces the day: its commit removes Spark's data files and their deletes.
    String runId = home.okJson("run", job, "--slice", DAY).get("run_id").asText();
    assertThat(home.sparkRows("sales.fact_orders", ON_DAY))
        .isEqualTo(home.sparkRows("sales.staging_orders", ON_DAY));

    home.ok("revert", "sales.fact_orders", "--run", runId);

    assertThat(home.sparkRows("sales.fact_orders", ON_DAY)).isEqualTo(sparkDay);
    assertThat(home.sparkRows("sales.fact_orders", ON_OTHER_DAY)).isEqualTo(sparkOtherDay);
    assertThat(home.floeRows("sales.fact_orders")).isEqualTo(home.sparkRows("sales.fact_orders"));
  }

  private static long positionDeleteFiles(SparkEngine spark, String table, String where) {
    String count =
        spark
            .sql(
                "SELECT count(*) FROM "
                    + table
                    + ".delete_files WHERE content = 1 AND partition."
                    + where)
            .get(0);
    return Long.parseLong(count.substring("long:".length()));
  }
}
