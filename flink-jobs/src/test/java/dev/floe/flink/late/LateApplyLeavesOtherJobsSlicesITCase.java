package dev.floe.flink.late;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.window.AsOf;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.SliceJob;
import dev.floe.flink.session.LocalCluster;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jobs load days of the same table from different sources (issue 13): the late apply of one job
 * must never rerun a day the other loaded, even when that day's rows arrive late. The table's
 * content, read from its files, is the judge.
 */
class LateApplyLeavesOtherJobsSlicesITCase {
  private static final String OTHER_JOB =
      """
      job: fact_orders_from_partner
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date
        FROM sales.partner_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  private static LocalCluster cluster;

  @TempDir Path home;

  @BeforeAll
  static void oneClusterForTheClass() {
    cluster = LocalCluster.start(1);
  }

  @AfterAll
  static void closeTheCluster() {
    cluster.close();
  }

  @Test
  void lateRowsOfADayAnotherJobLoadedAreLeftToThatJob() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    LateTables tables = LateTables.create(config, "P3D", "report");
    tables.createSource("sales.partner_orders");
    JobSpec partner =
        JobSpecParser.parse(Manifests.parse("jobs/partner.yaml", OTHER_JOB), OTHER_JOB);
    tables.arrive("2026-10-03", 2);
    tables.arriveIn("sales.partner_orders", "2026-10-04", 2);
    tables.load("2026-10-03");
    SliceJob.run(RunRequest.of(config, partner, "2026-10-04"));
    tables.arriveIn("sales.partner_orders", "2026-10-04", 1); // late for the partner's day
    ContentHash oct3 = tables.hash("sales.fact_orders", "2026-10-03");
    ContentHash oct4 = tables.hash("sales.fact_orders", "2026-10-04");
    assertThat(oct4.rows()).isEqualTo(2);
    Instant asOf = AsOf.parse("--as-of", "2026-10-05");

    LateApplyResult daily = LateApply.of(config, LateTables.job()).asOf(asOf).run();

    assertThat(daily.reruns()).isEmpty();
    assertThat(daily.exitCode()).isZero();
    assertThat(tables.hash("sales.fact_orders", "2026-10-03")).isEqualTo(oct3);
    assertThat(tables.hash("sales.fact_orders", "2026-10-04"))
        .as("the partner's day after the daily job's late apply")
        .isEqualTo(oct4);

    // The job that loaded it folds its late row in.
    LateApplyResult partnerApply = LateApply.of(config, partner).asOf(asOf).run();

    assertThat(partnerApply.reruns())
        .extracting(r -> r.planned().slice().value(), SliceRerun::status)
        .containsExactly(tuple("2026-10-04", "committed"));
    assertThat(tables.hash("sales.fact_orders", "2026-10-04"))
        .isEqualTo(tables.hash("sales.partner_orders", "2026-10-04"))
        .extracting(ContentHash::rows)
        .isEqualTo(3L);
    assertThat(tables.hash("sales.fact_orders", "2026-10-03")).isEqualTo(oct3);
  }
}
