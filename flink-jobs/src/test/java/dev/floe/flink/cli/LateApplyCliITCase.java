package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.WebhookServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `floe late apply` on the example job (P3D, after_window: report). */
class LateApplyCliITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OCT3 = "2026-10-03";
  private static final String OCT4 = "2026-10-04";

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;
  @TempDir Path work;

  @BeforeEach
  void applyAndSeedTheExampleTables() {
    ok(floe(home, "tables", "apply", examples().resolve("tables").toString()));
    ok(floe(home, "sql", "-f", examples().resolve("sql/seed_staging.sql").toString()));
  }

  /**
   * The marker promises "partitions that end at or before floe.sealed-through are final", and the
   * runbook tells schedulers to pass their logical time as --as-of "so a retried or backfilled task
   * judges the windows the same way". A backfilled (older) task then sees the day open again and
   * rewrites a partition the marker already declared final.
   */
  @Test
  void anApplyWithAnOlderAsOfDoesNotRewriteAPartitionBehindTheSealingMarker() {
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    ok(floe(home, "run", job, "--slice", OCT3));
    ok(floe(home, "run", job, "--slice", OCT4));
    ok(floe(home, "late", "apply", job, "--as-of", "2026-10-08"));
    assertThat(fact().properties()).containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-05");
    ContentHash sealedOct3 = day(OCT3);
    ok(
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (6, 15, 40.00, DATE '2026-10-03')"));

    CliRun backfilledTask = floe(home, "late", "apply", job, "--as-of", "2026-10-06");

    assertThat(backfilledTask.exitCode()).as(backfilledTask.out() + backfilledTask.err()).isZero();
    assertThat(fact().properties()).containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-05");
    assertThat(day(OCT3))
        .as(
            "Oct 3 ends before floe.sealed-through=2026-10-05, so it is final:%n%s",
            backfilledTask.out())
        .isEqualTo(sealedOct3);
  }

  /**
   * `floe late apply` reruns "each through `floe run`", and a commit to main sends the job's
   * effects; a failed effect of the same run key is re-armed for a new commit (effects runbook).
   * Late apply commits without ever touching the outbox.
   */
  @Test
  void aLateRerunThatCommitsSendsTheEffectItsRunKeyStillOwes() throws Exception {
    String job = manifestWithEffect();
    server.failNext(1, 500);
    CliRun first = ok(floe(home, "run", job, "--slice", OCT3));
    assertThat(first.out()).contains("notify_bi  failed (1 attempt(s), HTTP 500)");
    ok(
        floe(
            home,
            "sql",
            "INSERT INTO sales.staging_orders VALUES (4, 13, 30.00, DATE '2026-10-03')"));

    CliRun apply = ok(floe(home, "late", "apply", job, "--as-of", "2026-10-05", "--json"));

    JsonNode result = JSON.readTree(apply.out());
    assertThat(result.get("reruns").get(0).get("status").asText()).isEqualTo("committed");
    long snapshot = result.get("reruns").get(0).get("snapshot_id").asLong();
    assertThat(server.count())
        .as("POSTs: the failed one, then the late rerun's commit")
        .isEqualTo(2);
    assertThat(JSON.readTree(server.requests().get(1).body()).get("snapshot").asLong())
        .isEqualTo(snapshot);
  }

  private String manifestWithEffect() throws java.io.IOException {
    String text =
        Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"))
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s"
                  body: '{"slice": "${slice}", "snapshot": ${snapshot_id}, "rows": ${rows}}'
                max_attempts: 1
            """
                .formatted(server.url("/hook"));
    Path file = work.resolve("fact_orders_daily.yaml");
    Files.writeString(file, text);
    return file.toString();
  }

  private static CliRun ok(CliRun run) {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    return run;
  }

  private Table fact() {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      return Catalogs.loadTable(catalog, "sales.fact_orders");
    } finally {
      Catalogs.close(catalog);
    }
  }

  private ContentHash day(String day) {
    return TableContent.hash(
        fact(), Expressions.equal("order_date", (int) LocalDate.parse(day).toEpochDay()));
  }
}
