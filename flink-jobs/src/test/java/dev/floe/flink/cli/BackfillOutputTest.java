package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.job.Timeout;
import dev.floe.flink.backfill.BackfillPlan;
import dev.floe.flink.backfill.BackfillRequest;
import dev.floe.flink.backfill.BackfillResult;
import dev.floe.flink.backfill.PlannedSlice;
import dev.floe.flink.backfill.SampleCheck;
import dev.floe.flink.backfill.SliceOutcome;
import dev.floe.flink.backfill.SliceStatus;
import dev.floe.flink.effects.EffectsReport;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report and JSON `floe backfill` prints for an interrupted backfill, line by line. */
class BackfillOutputTest {
  private static final String N = System.lineSeparator();

  @TempDir Path home;

  @Test
  void anInterruptedBackfillReportsEachSliceTheTotalsAndHowToResume() throws Exception {
    BackfillOutput output = interrupted();

    String text = output.text();

    assertThat(text)
        .isEqualTo(
            "backfill  jan"
                + N
                + "  job       fact_orders_backfill -> sales.fact_orders (overwrite)"
                + N
                + "  range     2026-01-01 to 2026-01-03 (exclusive): 2 slices, 0 already loaded by"
                + " this backfill"
                + N
                + "  code      v1"
                + N
                + "  in flight at most 2 slice(s), parallelism 1 each; commits serialized per table"
                + N
                + "  timeout   each slice 30m (--timeout); overall no limit"
                + N
                + "  effects   the job declares none"
                + N
                + "  sample    2026-01-02: reproducible"
                + N
                + N
                // The slice table is ResultTable's, lines joined by \n.
                + "slice               | status    | rows | snapshot | time  | error\n"
                + "--------------------+-----------+------+----------+-------+------\n"
                + "2026-01-01          | committed | 10   | 5        | 1.5 s |\n"
                + "2026-01-02 (sample) | failed    |      |          | 2.0 s | boom\n"
                + "(2 rows)"
                + N
                + N
                + "2 slices: 1 committed, 0 no-op, 0 skipped, 1 failed, 0 not run; 10 rows in 0:03"
                + N
                + "Rerun the same command to resume: slices loaded by jan are skipped while their"
                + " sources stay unchanged."
                + N
                + "Its snapshots: floe snapshots sales.fact_orders --backfill jan"
                + N);
  }

  @Test
  void theJsonKeepsItsFieldsInOrderWithIdsAsStrings() throws Exception {
    JsonNode json = new ObjectMapper().readTree(interrupted().json());

    List<String> fields = new ArrayList<>();
    json.fieldNames().forEachRemaining(fields::add);
    assertThat(fields)
        .containsExactly(
            "status",
            "backfill_id",
            "job",
            "target",
            "mode",
            "code_version",
            "from",
            "to",
            "dry_run",
            "max_concurrency",
            "slices_per_job",
            "parallelism",
            "allow_effects",
            "fail_fast",
            "slice_timeout",
            "overall_timeout",
            "sample",
            "run_again",
            "slices",
            "counts",
            "rows",
            "on_backfill_done",
            "flink_jobs",
            "elapsed_ms",
            "exit_code",
            "error");
    assertThat(json.get("slice_timeout").asText()).isEqualTo("PT30M");
    assertThat(json.get("slices").get(0).get("snapshot_id").isTextual()).isTrue();
    assertThat(json.get("slices").get(1).get("rows").isNull()).isTrue();
    assertThat(json.get("counts").get("failed").asInt()).isEqualTo(1);
    assertThat(json.get("exit_code").asInt()).isEqualTo(1);
  }

  private BackfillOutput interrupted() {
    BackfillRequest request =
        BackfillRequest.builder(
                CatalogConfigLoader.embedded(home),
                ExampleTables.backfillJob(ExampleTables.BACKFILL_JOB),
                "2026-01-01",
                "2026-01-03")
            .maxConcurrency(2)
            .options(o -> o.backfillId("jan").timeout(Timeout.ofFlag("--timeout", "30m")))
            .build();
    PlannedSlice first = new PlannedSlice("2026-01-01", "l1", "k1", false, null);
    PlannedSlice second = new PlannedSlice("2026-01-02", "l2", "k2", true, null);
    SliceOutcome committed =
        new SliceOutcome("2026-01-01", SliceStatus.COMMITTED, 10, 5L, "h1", 1500, null, 0, null);
    SliceOutcome failed =
        new SliceOutcome("2026-01-02", SliceStatus.FAILED, -1, null, null, 2000, "boom", 1, null);
    BackfillPlan plan =
        new BackfillPlan(
            "jan",
            "fact_orders_backfill",
            "sales.fact_orders",
            "overwrite",
            "v1",
            List.of(first, second),
            second,
            2,
            1);
    SampleCheck sample = new SampleCheck("2026-01-02", failed, "h", "h", true, "reproducible", 0);
    return new BackfillOutput(
        request,
        new BackfillResult(plan, sample, List.of(committed, failed), 3500, EffectsReport.NONE));
  }
}
