package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.slice.Scope;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.job.RunResult;
import dev.floe.flink.testing.ExampleTables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text and JSON `floe run` prints, byte for byte (scripts and runbooks read both). */
class RunOutputTest {
  private static final String N = System.lineSeparator();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final Scope DAY =
      Scope.fromLabel("order_date=[2026-10-03,2026-10-04)", ExampleTables.ORDERS).orElseThrow();

  @Test
  void anAuditedOverwriteShowsItsBranchAndTheCommandThatPublishesIt() throws Exception {
    RunResult result =
        new RunResult(
            "fact_orders_daily",
            "sales.fact_orders",
            WriteMode.OVERWRITE,
            DAY,
            "key-1",
            "run-1",
            Map.of("sales.staging_orders", 42L),
            new CommitOutcome(
                CommitOutcome.Status.COMMITTED, 9007199254740993L, 2, "h1", 1, "replaced"),
            1234,
            "audit-run-1");

    RunOutput output = new RunOutput(result, EffectsReport.NONE);

    assertThat(output.text())
        .isEqualTo(
            "fact_orders_daily  sales.fact_orders  order_date=[2026-10-03,2026-10-04)"
                + N
                + "  mode      overwrite"
                + N
                + "  status    committed"
                + N
                + "  detail    replaced"
                + N
                + "  snapshot  9007199254740993"
                + N
                + "  branch    audit-run-1 (main unchanged until published)"
                + N
                + "  next      floe publish sales.fact_orders --run run-1   (or: floe discard ...)"
                + N
                + "  rows      2"
                + N
                + "  content   h1"
                + N
                + "  sources   {sales.staging_orders=42}"
                + N
                + "  run key   key-1"
                + N
                + "  run id    run-1"
                + N
                + "  elapsed   1.2 s"
                + N);
    assertThat(output.json())
        .isEqualTo(
            pretty(
                "{\"job\":\"fact_orders_daily\",\"target\":\"sales.fact_orders\",\"mode\":\"overwrite\","
                    + "\"slice\":\"order_date=[2026-10-03,2026-10-04)\",\"status\":\"committed\","
                    + "\"snapshot_id\":\"9007199254740993\",\"branch\":\"audit-run-1\",\"rows\":2,"
                    + "\"content_hash\":\"h1\",\"attempts\":1,\"detail\":\"replaced\","
                    + "\"source_snapshots\":{\"sales.staging_orders\":\"42\"},\"run_key\":\"key-1\","
                    + "\"run_id\":\"run-1\",\"elapsed_ms\":1234}"));
  }

  @Test
  void aKeyedRunOnTheWholeTableCountsItsBatchNotTheTable() {
    RunResult result =
        new RunResult(
            "dim_customer_merge",
            "sales.dim_customer",
            WriteMode.MERGE,
            Scope.wholeTable(),
            "key-2",
            "run-2",
            Map.of(),
            new CommitOutcome(CommitOutcome.Status.NO_OP, null, 3, "h2", 1, "nothing changed"),
            50,
            null);

    String text = new RunOutput(result, new EffectsReport(List.of(), "effects off")).text();

    assertThat(text)
        .startsWith("dim_customer_merge  sales.dim_customer  *" + N + "  mode      merge" + N)
        .contains("  batch     3 rows (one per key)" + N)
        .contains("  sources   -" + N)
        .doesNotContain("  branch ")
        .endsWith("  elapsed   0.1 s" + N + "  effects   effects off" + N);
  }

  @Test
  void aDetachedRunSaysWhereItsOutcomeIs() throws Exception {
    RunResult result =
        new RunResult(
            "fact_orders_daily",
            "sales.fact_orders",
            WriteMode.OVERWRITE,
            DAY,
            "key-3",
            "run-3",
            Map.of(),
            null,
            0,
            null);

    RunOutput output = new RunOutput(result, EffectsReport.NONE);

    assertThat(output.text())
        .contains(
            "  status    submitted (detached: the TaskManager logs the outcome in a line starting"
                + " 'Floe job')"
                + N)
        .doesNotContain("  rows ");
    assertThat(MAPPER.readTree(output.json()).get("status").asText()).isEqualTo("submitted");
    assertThat(MAPPER.readTree(output.json()).get("snapshot_id").isNull()).isTrue();
  }

  /** The expected object as --json prints it: Jackson's default pretty printer, keys in order. */
  private static String pretty(String compact) throws Exception {
    return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(MAPPER.readTree(compact));
  }
}
