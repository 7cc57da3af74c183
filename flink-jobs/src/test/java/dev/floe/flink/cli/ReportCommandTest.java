package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.snapshot.Revert;
import dev.floe.catalog.spec.FloeTableProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
  void aSliceARevertRestoredFromExpiredLoadsIsCountedAndListedNotLeftOut() throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      Table table = LineageCommits.create(catalog, "s.reverted", Map.of());
      LineageCommits.load(table, "2026-10-03", "r1", "fact_daily", null, 2);
      LineageCommits.load(table, "2026-10-03", "r2", "fact_daily", null, 3);
      Revert.of(table, "s.reverted").run("r2").commit();
      table.expireSnapshots().expireOlderThan(Long.MAX_VALUE).retainLast(1).commit();
    } finally {
      Catalogs.close(catalog);
    }
    Path page = outDir.resolve("r.html");

    CliRun text =
        floe(home, "report", "s.reverted", "--out", page.toString(), "--as-of", "2026-10-05");
    CliRun json =
        floe(
            home,
            "report",
            "s.reverted",
            "--out",
            page.toString(),
            "--as-of",
            "2026-10-05",
            "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out())
        .contains(
            ": 0 loaded, 0 reloaded, 0 late data pending, 0 sealed, 1 slice with expired load"
                + " history; 1 snapshot, 0 rollbacks, 1 revert");
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode expired =
        new ObjectMapper().readTree(json.out()).get("slices_with_expired_load_history");
    assertThat(expired).hasSize(1);
    assertThat(expired.get(0).get("slice").asText()).isEqualTo("d=[2026-10-03,2026-10-04)");
    assertThat(expired.get(0).get("rows").asLong()).isEqualTo(2);
    assertThat(expired.get(0).get("job").asText()).isEqualTo("fact_daily");
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

  @Test
  void aSymbolicLinkAsOutIsFollowedAndKept() throws Exception {
    Path site = Files.createDirectory(outDir.resolve("site"));
    Path real = Files.writeString(site.resolve("real.html"), "old");
    Path link = Files.createSymbolicLink(outDir.resolve("link.html"), Path.of("site/real.html"));
    Path dangling =
        Files.createSymbolicLink(outDir.resolve("new.html"), Path.of("site/created.html"));

    CliRun run = floe(home, "report", "s.fact", "--out", link.toString(), "--as-of", "2026-10-05");
    CliRun toNew =
        floe(home, "report", "s.fact", "--out", dangling.toString(), "--as-of", "2026-10-05");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("wrote " + link + ": s.fact");
    assertThat(Files.isSymbolicLink(link)).as("the link is kept").isTrue();
    assertThat(Files.readString(real)).startsWith("<!DOCTYPE html>");
    assertThat(toNew.exitCode()).as(toNew.err()).isZero();
    assertThat(Files.isSymbolicLink(dangling)).isTrue();
    assertThat(Files.readString(site.resolve("created.html"))).isEqualTo(Files.readString(real));
    try (var files = Files.list(site)) {
      assertThat(files).containsExactlyInAnyOrder(real, site.resolve("created.html"));
    }
  }

  @Test
  void aFifoAsOutIsAUsageErrorAndIsLeftInPlace() throws Exception {
    Path fifo = outDir.resolve("pipe.html");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor()).isZero();
    Path link = Files.createSymbolicLink(outDir.resolve("link.html"), fifo);

    CliRun run = floe(home, "report", "s.fact", "--out", fifo.toString(), "--as-of", "2026-10-05");
    CliRun viaLink =
        floe(home, "report", "s.fact", "--out", link.toString(), "--as-of", "2026-10-05");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("Cannot write the report to " + fifo + ": it is not a regular file");
    assertThat(viaLink.exitCode()).isEqualTo(2);
    assertThat(viaLink.err()).contains("Cannot write the report to " + link + ":");
    assertThat(Files.isRegularFile(fifo)).isFalse();
    assertThat(Files.exists(fifo)).as("the FIFO is not replaced").isTrue();
    try (var files = Files.list(outDir)) {
      assertThat(files).containsExactlyInAnyOrder(fifo, link); // no temp file left behind
    }
  }

  @Test
  void aFolderThatCannotBeWrittenIsAUsageErrorBeforeAnyTableIsRead() throws Exception {
    // Root writes any folder whatever its mode bits, but no file can be created in /proc.
    boolean root = "root".equals(System.getProperty("user.name"));
    Path locked = root ? Path.of("/proc") : Files.createDirectory(outDir.resolve("locked"));
    if (!root) {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    try {
      CliRun run =
          floe(
              home,
              "report",
              "s.nope",
              "--out",
              locked.resolve("r.html").toString(),
              "--as-of",
              "2026-10-05");

      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err())
          .contains(
              "Cannot write the report to "
                  + locked.resolve("r.html")
                  + ": folder "
                  + locked
                  + " is not writable")
          .doesNotContain("s.nope");
    } finally {
      if (!root) {
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
    }
  }
}
