package dev.floe.it.races;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Snapshot;

/**
 * What the processes of one race did: exit codes, statuses, run ids and timings, printed as one
 * compact table, and the exit-code rules every race keeps (0 or 4; 5 only for a run the history
 * then holds; never 1).
 */
final class RaceReport {
  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final String scenario;
  private final List<FloeProcess> processes = new ArrayList<>();
  private final Map<FloeProcess, String> read = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final long t0 = System.nanoTime();
  private final long t0Wall = System.currentTimeMillis();

  RaceReport(String scenario) {
    this.scenario = scenario;
  }

  /** Starts {@code bin/floe args} on {@code home}, timed from this report's start. */
  FloeProcess start(RaceHome home, String name, String... args) {
    FloeProcess process = home.start(name, t0, args);
    processes.add(process);
    return process;
  }

  /** Seconds since the race started. */
  double elapsed() {
    return FloeProcess.millisSince(t0) / 1000.0;
  }

  /** What the process read, in words for the table (e.g. the source version). */
  void read(FloeProcess process, String what) {
    read.put(process, what);
  }

  void note(String line) {
    notes.add(line);
  }

  List<FloeProcess> processes() {
    return processes;
  }

  /** Waits for every process; kills the rest if one wait fails. */
  void awaitAll() throws InterruptedException {
    try {
      for (FloeProcess p : processes) {
        p.await();
      }
    } finally {
      processes.forEach(FloeProcess::kill);
    }
  }

  static String status(FloeProcess p) {
    JsonNode json = p.json();
    if (json != null && json.has("status")) {
      return json.get("status").asText();
    }
    return p.exitCode() == 0 ? "ok" : "-";
  }

  /** The run id a `floe run --json` printed, or the one its error names (exit 5). */
  static String runId(FloeProcess p) {
    JsonNode json = p.json();
    if (json != null && json.hasNonNull("revert_run_id")) {
      return json.get("revert_run_id").asText();
    }
    if (json != null && json.hasNonNull("run_id")) {
      return json.get("run_id").asText();
    }
    Matcher m = UUID.matcher(p.failure());
    return m.find() ? m.group() : null;
  }

  private static final Pattern PLANNED =
      Pattern.compile(
          "the run read snapshot (-?\\d+)|ours \\{[^}]*sales\\.staging_orders=(-?\\d+)");

  /**
   * The staging snapshot the run's lineage names (what Floe recorded at planning), from its JSON or
   * its error; null when neither says.
   */
  static Long plannedSource(FloeProcess p) {
    JsonNode json = p.json();
    if (json != null && json.has("source_snapshots")) {
      JsonNode id = json.get("source_snapshots").get(RaceHome.STAGING);
      return id == null ? null : Long.parseLong(id.asText());
    }
    Matcher m = PLANNED.matcher(p.failure());
    if (m.find()) {
      return Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
    }
    return null;
  }

  /**
   * Every exit code is 0 or 4, or 5 for a process whose run `floe snapshots` then lists; exit 1 (or
   * anything else) fails the race.
   */
  void assertExitCodes(RaceHome home) {
    for (FloeProcess p : processes) {
      assertThat(p.exitCode()).as(p.describe()).isIn(0, 4, 5);
      if (p.exitCode() == 5) {
        String runId = runId(p);
        assertThat(runId).as("exit 5 without a run id: " + p.describe()).isNotNull();
        assertThat(home.floe("snapshots", RaceHome.FACT, "--json"))
            .as("exit 5, so `floe snapshots` must list run %s: %s", runId, p.describe())
            .contains(runId);
      }
    }
  }

  /** The table: process, start/scan/end in s, exit, status, what it read; then the notes. */
  String print(List<Snapshot> history) {
    StringBuilder s = new StringBuilder();
    s.append("\n== ").append(scenario).append('\n');
    s.append(
        String.format(
            "  %-9s %6s %6s %6s %6s %4s  %-9s %-8s %s%n",
            "process", "start", "scan", "commit", "end", "exit", "status", "run id", "read"));
    for (FloeProcess p : processes) {
      String runId = runId(p);
      s.append(
          String.format(
              "  %-9s %6.1f %6s %6s %6.1f %4d  %-9s %-8s %s%n",
              p.name(),
              p.startedMillis() / 1000.0,
              seconds(p.scanSeenMillis()),
              seconds(p.commitSeenMillis()),
              p.endedMillis() / 1000.0,
              p.exitCode(),
              status(p),
              runId == null ? "-" : runId.substring(0, 8),
              read.getOrDefault(p, "")));
      if (p.exitCode() != 0) {
        s.append("             ").append(abbreviate(p.failure(), 600)).append('\n');
      }
    }
    s.append("  history of main (oldest first): ");
    List<String> commits = new ArrayList<>();
    for (Snapshot snap : history) {
      String runId = snap.summary().get("floe.run-id");
      commits.add(
          snap.operation()
              + (runId == null ? "" : ":" + runId.substring(0, 8))
              + String.format("@%.1f", (snap.timestampMillis() - t0Wall) / 1000.0));
    }
    s.append(String.join(" ", commits)).append('\n');
    notes.forEach(n -> s.append("  ").append(n).append('\n'));
    s.append(String.format("  catalog contention in the processes' logs: %s%n", contention()));
    System.out.print(s);
    return s.toString();
  }

  /**
   * How often SQLite said busy/locked and Iceberg retried a commit (a metadata race it settles
   * itself), over all processes: evidence that the commits really met in the catalog.
   */
  private String contention() {
    long busy = 0;
    long retries = 0;
    for (FloeProcess p : processes) {
      for (String line : p.err().lines().toList()) {
        if (line.contains("SQLITE_BUSY") || line.contains("database is locked")) {
          busy++;
        }
        if (line.contains("Retrying task after failure")) {
          retries++;
        }
      }
    }
    return busy + " SQLite busy/locked lines, " + retries + " Iceberg commit retries";
  }

  private static String seconds(long millis) {
    return millis < 0 ? "-" : String.format("%.1f", millis / 1000.0);
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "...";
  }
}
