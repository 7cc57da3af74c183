package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.PastedCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe late plan` and `floe late apply --dry-run` as an operator types them (no Flink job: both
 * only read). Oct 1 to 3 loaded from s.staging under P3D; then 1 late row for Oct 1, 2 for Oct 3.
 */
class LateCommandTest {
  private static final String JOB =
      """
      job: fact_daily
      target: s.fact
      mode: overwrite
      slice: {column: d}
      query: |
        SELECT id, d FROM s.staging WHERE d >= :slice_start AND d < :slice_end
      """;

  @TempDir Path home;
  @TempDir Path jobs;
  private Path manifest;
  private long read;
  private long now;

  @BeforeEach
  void threeDaysAndLateRows() throws Exception {
    manifest = Files.writeString(jobs.resolve("fact_daily.yaml"), JOB);
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table fact =
          LineageCommits.create(
              catalog,
              "s.fact",
              Map.of(
                  FloeTableProperties.LATE_DATA_WINDOW, "P3D",
                  FloeTableProperties.LATE_DATA_AFTER_WINDOW, "report"));
      Table staging = LineageCommits.create(catalog, "s.staging", Map.of());
      read = LineageCommits.append(staging, "2026-10-01", 2);
      for (String day : new String[] {"2026-10-01", "2026-10-02", "2026-10-03"}) {
        LineageCommits.load(fact, day, "r" + day, "fact_daily", staging, 2);
      }
      LineageCommits.append(staging, "2026-10-01", 1);
      now = LineageCommits.append(staging, "2026-10-03", 2);
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void planPrintsStateLateRowsActionAndTheSnapshotsRead() {
    CliRun run = floe(home, "late", "plan", manifest.toString(), "--as-of", "2026-10-05");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String sources = "s.staging " + read + " -> " + now;
    assertThat(run.out())
        .isEqualTo(
            String.join(
                "\n",
                "fact_daily  s.fact  as of 2026-10-05T00:00:00Z  late-data window P3D"
                    + " (after_window: report)",
                "  slice        state   late rows  action            sources read (snapshot read"
                    + " -> now)",
                "  2026-10-01   sealed  1          report            " + sources,
                "  2026-10-02   open    0          none              " + sources,
                "  2026-10-03   open    2          rerun             " + sources,
                "  why:",
                "    2026-10-01: 1 late row; sealed since 2026-10-05T00:00:00Z: reported, not"
                    + " loaded (after_window: report)",
                "    2026-10-03: 2 late rows; open until 2026-10-07T00:00:00Z",
                "  floe.sealed-through: none now, 2026-10-02 after `floe late apply`",
                "    stops: 2026-10-02 is open until 2026-10-06T00:00:00Z",
                "  next: floe late apply "
                    + manifest
                    + " --as-of 2026-10-05T00:00:00Z   (1 slice to rerun)",
                ""));
  }

  @Test
  void theNextCommandQuotesAManifestPathThatAShellWouldSplit() throws Exception {
    Path spaced = Files.createDirectories(jobs.resolve("my jobs")).resolve("fact daily's.yaml");
    Files.writeString(spaced, JOB);

    CliRun run = floe(home, "late", "plan", spaced.toString(), "--as-of", "2026-10-05");

    assertThat(run.exitCode()).as(run.err()).isZero();
    String quoted = "'" + spaced.toString().replace("'", "'\\''") + "'";
    String next = "  next: floe late apply " + quoted + " --as-of 2026-10-05T00:00:00Z";
    assertThat(run.out()).contains(next + "   (1 slice to rerun)\n");
    String line = run.out().lines().filter(l -> l.startsWith("  next: ")).findFirst().orElseThrow();
    String command = line.substring("  next: ".length(), line.indexOf("   ("));
    assertThat(PastedCommand.words(command))
        .containsExactly(
            "floe", "late", "apply", spaced.toString(), "--as-of", "2026-10-05T00:00:00Z");
  }

  @Test
  void planJsonNamesEverySourceSnapshotAndCount() throws Exception {
    CliRun run = floe(home, "late", "plan", manifest.toString(), "--as-of", "2026-10-05", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("job").asText()).isEqualTo("fact_daily");
    assertThat(json.get("source_snapshots").get("s.staging").asLong()).isEqualTo(now);
    JsonNode oct3 = json.get("slices").get(2);
    assertThat(oct3.get("slice").asText()).isEqualTo("d=[2026-10-03,2026-10-04)");
    assertThat(oct3.get("state").asText()).isEqualTo("open");
    assertThat(oct3.get("late_rows").asLong()).isEqualTo(2);
    assertThat(oct3.get("action").asText()).isEqualTo("rerun");
    assertThat(oct3.get("latest_run_id").asText()).isEqualTo("r2026-10-03");
    JsonNode source = oct3.get("sources").get(0);
    assertThat(source.get("read_snapshot_id").asLong()).isEqualTo(read);
    assertThat(source.get("up_to_snapshot_id").asLong()).isEqualTo(now);
    assertThat(json.get("sealed_through").isNull()).isTrue();
    assertThat(json.get("sealed_through_after_apply").asText()).isEqualTo("2026-10-02");
  }

  @Test
  void theDryRunListsTheRerunsAndTheMarkerAndWritesNothing() throws Exception {
    CliRun run =
        floe(home, "late", "apply", manifest.toString(), "--as-of", "2026-10-05", "--dry-run");
    CliRun json =
        floe(
            home,
            "late",
            "apply",
            manifest.toString(),
            "--as-of",
            "2026-10-05",
            "--dry-run",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("  dry run, nothing changed: would rerun 1 slice\n")
        .contains("  2026-10-03   open    2          rerun")
        .contains("  reported, not loaded: 2026-10-01 (1 late row)\n")
        .contains("  floe.sealed-through: none -> 2026-10-02 (would be written)\n");
    JsonNode reruns = new ObjectMapper().readTree(json.out()).get("reruns");
    assertThat(reruns).hasSize(1);
    assertThat(reruns.get(0).get("status").asText()).isEqualTo("would rerun");
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table fact = Catalogs.loadTable(catalog, "s.fact");
      assertThat(fact.properties()).doesNotContainKey(FloeTableProperties.SEALED_THROUGH);
      assertThat(fact.snapshots()).hasSize(3);
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void aBadAsOfAManifestWithoutASliceOrAMissingTableIsAUsageError() throws Exception {
    Path noSlice =
        Files.writeString(
            jobs.resolve("swap.yaml"),
            "job: swap\ntarget: s.fact\nmode: swap\nquery: SELECT id, d FROM s.staging\n");
    Path missing = Files.writeString(jobs.resolve("missing.yaml"), JOB.replace("s.fact", "s.nope"));

    CliRun badAsOf = floe(home, "late", "plan", manifest.toString(), "--as-of", "yesterday");
    CliRun swap = floe(home, "late", "apply", noSlice.toString(), "--as-of", "2026-10-05");
    CliRun nope = floe(home, "late", "plan", missing.toString(), "--as-of", "2026-10-05");

    assertThat(badAsOf.exitCode()).isEqualTo(2);
    assertThat(badAsOf.err()).contains("Cannot parse --as-of 'yesterday'");
    assertThat(swap.exitCode()).isEqualTo(2);
    assertThat(swap.err())
        .contains("Cannot plan late data for")
        .contains("the manifest has no slice (mode swap owns the whole table)");
    assertThat(nope.exitCode()).isEqualTo(2);
    assertThat(nope.err()).contains("s.nope");
  }
}
