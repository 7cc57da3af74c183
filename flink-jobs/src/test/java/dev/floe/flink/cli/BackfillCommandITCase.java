package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.testing.ExampleTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `floe backfill` as an operator drives it: a backfill manifest, --json, resume, snapshots. */
class BackfillCommandITCase {
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;
  @TempDir Path project;
  private ExampleTables tables;
  private Path job;

  @BeforeEach
  void createTablesAndManifests() throws Exception {
    tables =
        new ExampleTables(CatalogConfigLoader.embedded(home))
            .createOrders(LocalDate.parse("2026-02-01"), 6, 10);
    job = Files.createDirectories(project.resolve("jobs")).resolve("fact_orders.yaml");
    Files.writeString(job, ExampleTables.BACKFILL_JOB);
  }

  @Test
  void aBackfillManifestRunsEverySliceAndTheSnapshotsOfTheBackfillAreListed() throws Exception {
    Path manifest = Files.createDirectories(project.resolve("backfills")).resolve("feb.yaml");
    Files.writeString(
        manifest,
        """
        backfill: feb_rebuild
        description: rounding fix
        job: ../jobs/fact_orders.yaml
        from: 2026-02-01
        to: 2026-02-07
        max_concurrency: 2
        """);

    CliRun run = CliRun.floe(home, "backfill", manifest.toString(), "--json");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    JsonNode result = JSON.readTree(run.out());
    assertThat(result.get("backfill_id").asText()).isEqualTo("feb_rebuild");
    assertThat(result.get("max_concurrency").asInt()).isEqualTo(2);
    assertThat(result.get("sample").get("slice").asText()).isEqualTo("2026-02-06");
    assertThat(result.get("sample").get("passed").asBoolean()).isTrue();
    assertThat(result.get("counts").get("committed").asInt()).isEqualTo(6);
    assertThat(result.get("rows").asLong()).isEqualTo(60);

    CliRun snapshots =
        CliRun.floe(
            home, "snapshots", ExampleTables.FACT_ORDERS, "--backfill", "feb_rebuild", "--json");

    JsonNode listed = JSON.readTree(snapshots.out());
    List<String> slices = new ArrayList<>();
    listed.forEach(entry -> slices.add(entry.get("slice").asText()));
    assertThat(slices).hasSize(6).doesNotHaveDuplicates();
    listed.forEach(entry -> assertThat(entry.get("backfill_id").asText()).isEqualTo("feb_rebuild"));
    assertThat(
            CliRun.floe(home, "snapshots", ExampleTables.FACT_ORDERS, "--backfill", "other").out())
        .contains("has no snapshot of backfill other");
  }

  @Test
  void anOnBackfillDoneWebhookThatFailedIsAWarningOnStderrWithJsonToo() throws Exception {
    server.failNext(1, 500);
    Path manifest = Files.createDirectories(project.resolve("backfills")).resolve("done.yaml");
    Files.writeString(
        manifest,
        """
        backfill: feb_done
        job: ../jobs/fact_orders.yaml
        from: 2026-02-01
        to: 2026-02-03
        on_backfill_done:
          - name: tell_bi
            webhook: {url: "%s"}
            max_attempts: 1
        """
            .formatted(server.url("/done")));

    CliRun run = CliRun.floe(home, "backfill", manifest.toString(), "--json");

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(run.out()).get("counts").get("committed").asInt()).isEqualTo(2);
    assertThat(run.err())
        .contains("floe backfill: warning: effect tell_bi was not delivered (failed after 1")
        .contains("HTTP 500");
    assertThat(server.count()).isEqualTo(1);
  }

  @Test
  void aFailedSampleSaysWhatFailedInOneLineAndInTheJsonObject() throws Exception {
    Files.writeString(job, ExampleTables.BACKFILL_JOB + "  - row_count: {min: 100}\n");
    String[] range = {"--from", "2026-02-01", "--to", "2026-02-03"};

    CliRun text =
        CliRun.floe(home, "backfill", job.toString(), range[0], range[1], range[2], range[3]);
    CliRun json =
        CliRun.floe(
            home, "backfill", job.toString(), range[0], range[1], range[2], range[3], "--json");

    assertThat(text.exitCode()).as(text.err()).isEqualTo(ExitCodes.CHECK_FAILED);
    List<String> errors = text.err().lines().filter(l -> l.startsWith("floe: ")).toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .startsWith("floe: Cannot backfill fact_orders_backfill (sample 2026-02-02): ")
        .contains("row_count");
    assertThat(json.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
    JsonNode result = JSON.readTree(json.out());
    assertThat(result.get("status").asText()).isEqualTo("failed");
    assertThat(result.get("exit_code").asInt()).isEqualTo(ExitCodes.CHECK_FAILED);
    assertThat(json.err()).isEqualTo("floe: " + result.get("error").asText() + "\n");
  }

  @Test
  void aFailedSliceAfterThePassedSampleIsNamedWithHowManyFailed() throws Exception {
    CliRun run =
        CliRun.floe(
            home,
            "backfill",
            job.toString(),
            "--from",
            "2026-02-01",
            "--to",
            "2026-02-04",
            "--inject-failure-at",
            "2026-02-01",
            "--json");

    JsonNode result = JSON.readTree(run.out());
    assertThat(run.exitCode()).as(run.err()).isNotZero().isEqualTo(result.get("exit_code").asInt());
    assertThat(result.get("status").asText()).isEqualTo("failed");
    assertThat(result.get("error").asText())
        .startsWith(
            "Cannot backfill fact_orders_backfill: 1 of 3 slices failed; the first,"
                + " 2026-02-01: ");
    assertThat(run.err()).isEqualTo("floe: " + result.get("error").asText() + "\n");
    CliRun rerun =
        CliRun.floe(
            home,
            "backfill",
            job.toString(),
            "--from",
            "2026-02-01",
            "--to",
            "2026-02-04",
            "--json");
    assertThat(rerun.exitCode()).as(rerun.err()).isZero();
    assertThat(JSON.readTree(rerun.out()).get("status").asText()).isEqualTo("complete");
    assertThat(JSON.readTree(rerun.out()).has("error")).isFalse();
    assertThat(rerun.err()).isEmpty();
  }

  @Test
  void slicesPerJobFromTheManifestSharesOneFlinkJobAndTheFlagWinsOverIt() throws Exception {
    Path manifest = Files.createDirectories(project.resolve("backfills")).resolve("shared.yaml");
    Files.writeString(
        manifest,
        """
        job: ../jobs/fact_orders.yaml
        from: 2026-02-01
        to: 2026-02-07
        slices_per_job: 10
        """);

    CliRun shared = CliRun.floe(home, "backfill", manifest.toString(), "--json");
    CliRun zero = CliRun.floe(home, "backfill", manifest.toString(), "--slices-per-job", "0");

    assertThat(shared.exitCode()).as(shared.err()).isEqualTo(ExitCodes.OK);
    JsonNode result = JSON.readTree(shared.out());
    assertThat(result.get("flink_jobs").asText())
        .isEqualTo("1 job for 5 slices (--slices-per-job 10)");
    assertThat(result.get("counts").get("committed").asInt()).isEqualTo(6);
    assertThat(zero.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(zero.err()).contains("--slices-per-job must be 1 to 100000, got 0");
  }

  @Test
  void progressLinesGoToStderrAndARerunSkipsEverySlice() {
    String[] args = {
      "backfill",
      job.toString(),
      "--from",
      "2026-02-01",
      "--to",
      "2026-02-04",
      "--progress",
      "lines"
    };

    CliRun first = CliRun.floe(home, args);
    CliRun second = CliRun.floe(home, args);

    assertThat(first.exitCode()).as(first.err()).isEqualTo(ExitCodes.OK);
    assertThat(first.err())
        .contains("floe backfill: 2026-02-03 started (sample)")
        .contains("floe backfill: sample 2026-02-03: reproducible")
        .contains("floe backfill: 2026-02-01 committed, 10 rows [2/3,");
    assertThat(first.out())
        .contains("3 slices: 3 committed, 0 no-op, 0 skipped, 0 failed, 0 not run; 30 rows")
        .contains(
            "Its snapshots: floe snapshots sales.fact_orders --backfill fact_orders_backfill_2026-02-01_2026-02-04_");
    assertThat(second.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(second.out())
        .contains("3 already loaded by this backfill")
        .contains("3 slices: 0 committed, 0 no-op, 3 skipped");
  }

  @Test
  void rangeFlagsWinOverTheManifestsRangeAlsoWhereTheFileGetsItWrongOrLacksIt() throws Exception {
    Path backfills = Files.createDirectories(project.resolve("backfills"));
    Path reversed = backfills.resolve("reversed.yaml");
    Files.writeString(
        reversed, "job: ../jobs/fact_orders.yaml\nfrom: 2026-03-01\nto: 2026-02-01\n");
    Path noTo = backfills.resolve("no-to.yaml");
    Files.writeString(noTo, "job: ../jobs/fact_orders.yaml\nfrom: 2026-02-01\n");

    CliRun refused = CliRun.floe(home, "backfill", reversed.toString(), "--dry-run");
    CliRun fixed =
        CliRun.floe(
            home,
            "backfill",
            reversed.toString(),
            "--from",
            "2026-02-01",
            "--to",
            "2026-02-04",
            "--dry-run",
            "--json");
    CliRun completed =
        CliRun.floe(home, "backfill", noTo.toString(), "--to", "2026-02-03", "--dry-run", "--json");
    CliRun stillEmpty =
        CliRun.floe(home, "backfill", noTo.toString(), "--to", "2026-01-03", "--dry-run");

    assertThat(refused.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(refused.err()).contains("reversed.yaml at 'to': '2026-02-01' is not after from");
    assertThat(fixed.exitCode()).as(fixed.err()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(fixed.out()).get("slices").size()).isEqualTo(3);
    assertThat(completed.exitCode()).as(completed.err()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(completed.out()).get("slices").size()).isEqualTo(2);
    assertThat(stillEmpty.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(stillEmpty.err()).contains("2026-01-03").doesNotContain("no-to.yaml at 'to'");
  }

  @Test
  void aDryRunListsWhatItWouldRunAndUnsafeBackfillsAreRefused() throws Exception {
    Path manifest = Files.createDirectories(project.resolve("backfills")).resolve("feb.yaml");
    Files.writeString(
        manifest,
        """
        job: ../jobs/fact_orders.yaml
        from: 2026-02-01
        to: 2026-02-07
        fail_fast: true
        on_backfill_done:
          - {name: tell_bi, webhook: {url: "http://127.0.0.1:9/never-contacted"}}
        """);
    CliRun dry = CliRun.floe(home, "backfill", manifest.toString(), "--dry-run");
    JsonNode fromFile =
        JSON.readTree(
            CliRun.floe(home, "backfill", manifest.toString(), "--dry-run", "--json").out());
    JsonNode overridden =
        JSON.readTree(
            CliRun.floe(
                    home, "backfill", manifest.toString(), "--dry-run", "--json", "--no-fail-fast")
                .out());
    CliRun pinned =
        CliRun.floe(
            home,
            "backfill",
            job.toString(),
            "--from",
            "2026-02-01",
            "--to",
            "2026-02-07",
            "--expect-version",
            "0.0.0-other");
    CliRun noRange = CliRun.floe(home, "backfill", job.toString());
    Path appendJob = job.resolveSibling("append.yaml");
    Files.writeString(
        appendJob, ExampleTables.BACKFILL_JOB.replace("mode: overwrite", "mode: append"));
    CliRun append =
        CliRun.floe(
            home, "backfill", appendJob.toString(), "--from", "2026-02-01", "--to", "2026-02-07");

    assertThat(dry.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(dry.out())
        .contains("2026-02-06: would run on main, then again into a scratch branch")
        .contains("would run")
        .contains("6 would run (dry run: nothing ran)")
        .contains("on_backfill_done  tell_bi  would send");
    assertThat(fromFile.get("fail_fast").asBoolean()).isTrue();
    assertThat(overridden.get("fail_fast").asBoolean()).isFalse();
    assertThat(tables.table(ExampleTables.FACT_ORDERS).currentSnapshot()).isNull();
    assertThat(pinned.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(pinned.err()).contains("pinned to code version 0.0.0-other");
    assertThat(noRange.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(noRange.err())
        .contains("give the range with --from (inclusive) and --to (exclusive)");
    assertThat(append.exitCode()).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(append.err()).contains("unknown mode 'append'").contains("not rerun-safe");
  }
}
