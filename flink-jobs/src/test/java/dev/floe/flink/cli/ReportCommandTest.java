package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.spec.FloeTableProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `floe report` as an operator types it, on the embedded catalog (no Flink job). */
class ReportCommandTest {
  @TempDir Path home;
  @TempDir Path outDir;

  /**
   * With a P3D window, as of 2026-10-05: Oct 1 sealed, Oct 2 reloaded, Oct 3 late (2 rows arrived
   * in the source after its run), Oct 4 loaded.
   */
  @BeforeEach
  void fourDays() {
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
      LineageCommits.append(staging, "2026-10-01", 2);
      LineageCommits.load(fact, "2026-10-01", "r1", "fact_daily", staging, 2);
      LineageCommits.load(fact, "2026-10-02", "r2", "fact_daily", staging, 2);
      LineageCommits.load(fact, "2026-10-02", "r3", "fact_daily", staging, 2);
      LineageCommits.load(fact, "2026-10-03", "r4", "fact_daily", staging, 2);
      LineageCommits.load(fact, "2026-10-04", "r5", "fact_daily", staging, 2);
      LineageCommits.append(staging, "2026-10-03", 2);
    } finally {
      Catalogs.close(catalog);
    }
  }

  @Test
  void writesThePageAndPrintsOneLineWithTheCountsPerState() throws Exception {
    Path page = outDir.resolve("report.html");

    CliRun run = floe(home, "report", "s.fact", "--out", page.toString(), "--as-of", "2026-10-05");
    String first = Files.readString(page);
    CliRun again =
        floe(home, "report", "s.fact", "--out", page.toString(), "--as-of", "2026-10-05");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "wrote "
                + page
                + ": s.fact as of 2026-10-05T00:00:00Z: 1 loaded, 1 reloaded, 1 late data pending,"
                + " 1 sealed; 5 snapshots, 0 rollbacks, 0 reverts\n");
    assertThat(first).startsWith("<!DOCTYPE html>").contains("<h1>s.fact</h1>");
    assertThat(again.exitCode()).isZero();
    assertThat(Files.readString(page)).isEqualTo(first);
    try (var files = Files.list(outDir)) {
      assertThat(files).containsExactly(page); // no temp file left behind
    }
    // Created as any new file is (the umask decides), not owner-only like a temp file.
    Path plain = Files.createFile(outDir.resolve("plain"));
    assertThat(Files.getPosixFilePermissions(page)).isEqualTo(Files.getPosixFilePermissions(plain));
  }

  @Test
  void jsonGivesTheSummaryPerSlice() throws Exception {
    Path page = outDir.resolve("r.html");

    CliRun run =
        floe(
            home,
            "report",
            "s.fact",
            "--out",
            page.toString(),
            "--as-of",
            "2026-10-05T00:00:00Z",
            "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("table").asText()).isEqualTo("s.fact");
    assertThat(json.get("late_data_window").asText()).isEqualTo("P3D (after_window: report)");
    assertThat(json.get("counts").toString())
        .isEqualTo("{\"loaded\":1,\"reloaded\":1,\"late data pending\":1,\"sealed\":1}");
    JsonNode oct3 = json.get("slices").get(2);
    assertThat(oct3.get("slice").asText()).isEqualTo("d=[2026-10-03,2026-10-04)");
    assertThat(oct3.get("state").asText()).isEqualTo("late data pending");
    assertThat(oct3.get("late_rows").asLong()).isEqualTo(2);
    assertThat(oct3.get("latest_run_id").asText()).isEqualTo("r4");
    assertThat(json.get("slices").get(1).get("loads").asInt()).isEqualTo(2);
    assertThat(Files.exists(page)).isTrue();
  }

  @Test
  void aBadAsOfAMissingTableOrFolderOrOutOrAFolderAsOutIsAUsageError() {
    String page = outDir.resolve("r.html").toString();

    CliRun badAsOf = floe(home, "report", "s.fact", "--out", page, "--as-of", "yesterday");
    CliRun noTable = floe(home, "report", "s.nope", "--out", page, "--as-of", "2026-10-05");
    CliRun noFolder =
        floe(
            home,
            "report",
            "s.fact",
            "--out",
            outDir.resolve("missing/r.html").toString(),
            "--as-of",
            "2026-10-05");
    CliRun noOut = floe(home, "report", "s.fact");
    Path folder = outDir.resolve("pages");
    CliRun aFolder;
    try {
      Files.createDirectory(folder);
      aFolder = floe(home, "report", "s.fact", "--out", folder.toString(), "--as-of", "2026-10-05");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    assertThat(badAsOf.exitCode()).isEqualTo(2);
    assertThat(badAsOf.err()).contains("Cannot parse --as-of 'yesterday'");
    assertThat(noTable.exitCode()).isEqualTo(2);
    assertThat(noTable.err()).contains("Cannot load table s.nope");
    assertThat(noFolder.exitCode()).isEqualTo(2);
    assertThat(noFolder.err()).contains("Cannot write the report to", "does not exist");
    assertThat(noOut.exitCode()).isEqualTo(2);
    assertThat(noOut.err()).contains("Missing required option: '--out=FILE'");
    assertThat(aFolder.exitCode()).isEqualTo(2);
    assertThat(aFolder.err())
        .contains("Cannot write the report to " + folder + ": it is a folder; name a file");
    assertThat(Files.isDirectory(folder)).as("the folder is not replaced by the page").isTrue();
    assertThat(Files.exists(Path.of(page))).isFalse();
  }
}
