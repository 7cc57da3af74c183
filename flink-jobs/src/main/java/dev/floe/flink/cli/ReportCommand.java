package dev.floe.flink.cli;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.report.Report;
import dev.floe.catalog.report.ReportHtml;
import dev.floe.catalog.report.ReportModel;
import dev.floe.catalog.report.SliceState;
import dev.floe.catalog.report.SliceStatus;
import dev.floe.catalog.window.AsOf;
import dev.floe.catalog.window.LateRowCount;
import dev.floe.catalog.window.SliceLoad;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe report <table> --out report.html`: one self-contained HTML page about a table. */
@Command(
    name = "report",
    header = "Write an HTML page about a table's slices and health.",
    mixinStandardHelpOptions = true,
    description = {
      "Write one self-contained HTML page about a table: a calendar heatmap of its slices",
      "(loaded, reloaded, late data pending, sealed; hover a cell for its lineage) and a snapshot",
      "timeline with rollbacks, reverts, tags and audit branches. Reads metadata and the source",
      "files that may hold late rows; changes no table. The same metadata and --as-of give the",
      "same page, byte for byte."
    })
public final class ReportCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Linux's limit too: a longer chain of links is a loop. */
  private static final int MAX_LINKS = 40;

  /** The CLI edge is the only place that reads the clock (the default --as-of). */
  Clock clock = Clock.systemUTC();

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "The HTML file to write (replaced if it exists).")
  Path out;

  @Option(
      names = "--as-of",
      paramLabel = "ISO-8601",
      description =
          "Judge late-data windows at this instant (2026-10-20T02:00:00Z) or date (2026-10-20,"
              + " its start in UTC). Default: now.")
  String asOf;

  @Override
  public Integer call() {
    Instant instant =
        asOf == null
            ? clock.instant().truncatedTo(ChronoUnit.SECONDS)
            : AsOf.parse("--as-of", asOf);
    Path target = target();
    Path temp = reserveTemp(target);
    ReportModel model;
    try {
      Catalog catalog = Catalogs.open(common.catalog());
      try {
        model = Report.of(catalog, table).asOf(instant).build();
      } finally {
        Catalogs.close(catalog);
      }
      write(temp, target, ReportHtml.render(model));
    } finally {
      deleteQuietly(temp);
    }
    print(model, spec.commandLine().getOut());
    return ExitCodes.OK;
  }

  /**
   * The regular file the page goes to, checked before any table is read: --out itself, or the file
   * its symbolic links lead to (the link is kept, as a shell's {@code >} keeps it).
   */
  private Path target() {
    Path target;
    try {
      target = followLinks(out.toAbsolutePath());
    } catch (IOException e) {
      throw InvalidInputException.of(
          "Cannot write the report to %s: %s %s",
          out, e.getClass().getSimpleName(), e.getMessage());
    }
    Path folder = target.getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw InvalidInputException.of(
          "Cannot write the report to %s: folder %s does not exist", out, folder);
    }
    if (Files.isDirectory(target)) {
      throw InvalidInputException.of(
          "Cannot write the report to %s: it is a folder; name a file, e.g. %s",
          out, out.resolve("report.html"));
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      throw InvalidInputException.of(
          "Cannot write the report to %s: it is not a regular file (a FIFO, a device or a"
              + " socket), which the page would replace; name a file",
          out);
    }
    return target;
  }

  /**
   * {@code path} with its symbolic links followed, also to a file that does not exist yet (a
   * dangling link: the page creates the file it names).
   */
  private static Path followLinks(Path path) throws IOException {
    Path current = path;
    for (int hops = 0; hops < MAX_LINKS; hops++) {
      if (Files.exists(current)) {
        return current.toRealPath();
      }
      if (!Files.isSymbolicLink(current)) {
        return current;
      }
      current = current.resolveSibling(Files.readSymbolicLink(current));
    }
    throw new IOException("more than " + MAX_LINKS + " symbolic links to follow");
  }

  /**
   * Creates the empty file the page is written to next to the target before any table is read, so a
   * folder that cannot be written fails at once. Not Files.createTempFile: its owner-only
   * permissions would stay on the report.
   */
  private Path reserveTemp(Path target) {
    Path folder = target.getParent();
    Path temp = folder.resolve(".floe-report-" + UUID.randomUUID() + ".tmp");
    try {
      return Files.createFile(temp);
    } catch (IOException e) {
      throw InvalidInputException.of(
          "Cannot write the report to %s: folder %s is not writable (%s)",
          out, folder, e.getClass().getSimpleName());
    }
  }

  /** Writes the page to {@code temp}, then moves it in place: a reader never sees half a page. */
  private void write(Path temp, Path target, String html) {
    try {
      Files.writeString(temp, html, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format(
              "Cannot write the report to %s: %s %s",
              out, e.getClass().getSimpleName(), e.getMessage()),
          e);
    }
  }

  private static void deleteQuietly(Path temp) {
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      // The page is written or the run failed for a reason already reported; a stray temp file
      // (named .floe-report-*.tmp) is all that is left.
    }
  }

  private void print(ReportModel model, PrintWriter out) {
    if (common.json) {
      out.println(Json.write(toMap(model)));
      return;
    }
    String counts =
        model.counts().entrySet().stream()
            .map(e -> e.getValue() + " " + e.getKey().text())
            .collect(Collectors.joining(", "));
    int expired = model.restoredFromExpiredHistory().size();
    out.printf(
        "wrote %s: %s as of %s: %s%s; %s, %s, %s%n",
        this.out,
        model.table(),
        model.asOf(),
        counts,
        expired == 0
            ? ""
            : ", " + expired + (expired == 1 ? " slice" : " slices") + " with expired load history",
        plural(model.snapshots().size(), "snapshot"),
        plural(model.rollbacks(), "rollback"),
        plural(model.reverts(), "revert"));
  }

  private Map<String, Object> toMap(ReportModel model) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("table", model.table());
    map.put("out", out.toString());
    map.put("as_of", model.asOf().toString());
    map.put("late_data_window", model.lateDataWindow());
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Map.Entry<SliceState, Integer> count : model.counts().entrySet()) {
      counts.put(count.getKey().text(), count.getValue());
    }
    map.put("counts", counts);
    map.put("snapshots", model.snapshots().size());
    map.put("rollbacks", model.rollbacks());
    map.put("reverts", model.reverts());
    map.put("current_snapshot_id", model.inputs().currentSnapshotId());
    map.put("metadata_location", model.inputs().metadataLocation());
    map.put("source_snapshots", model.inputs().sourceSnapshots());
    List<Map<String, Object>> slices = new ArrayList<>();
    for (SliceStatus slice : model.slices()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("slice", slice.slice().label());
      row.put("state", slice.state().text());
      row.put("loads", slice.loads().size());
      row.put("latest_run_id", slice.latest().lineage().runId());
      row.put("job", slice.latest().lineage().job());
      row.put("seals_at", slice.sealsAt() == null ? null : slice.sealsAt().toString());
      row.put("late_rows", slice.lateRowsUnknown() ? null : slice.knownLateRows());
      row.put(
          "late_rows_unknown",
          slice.lateRows().stream()
              .filter(c -> !c.known())
              .map(LateRowCount::describe)
              .collect(Collectors.toList()));
      slices.add(row);
    }
    map.put("slices", slices);
    map.put("history_cut_at_snapshot_id", model.historyCutAt());
    List<Map<String, Object>> expired = new ArrayList<>();
    for (SliceLoad revert : model.restoredFromExpiredHistory()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("slice", String.valueOf(revert.lineage().slice()));
      row.put("job", revert.lineage().job());
      row.put("rows", revert.lineage().rows());
      row.put("revert_run_id", revert.lineage().runId());
      row.put("revert_snapshot_id", revert.snapshotId());
      expired.add(row);
    }
    map.put("slices_with_expired_load_history", expired);
    return map;
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
