package dev.floe.it.races;

import static dev.floe.it.races.RaceHome.STAGING_SCANNED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.it.races.RaceHome.Order;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs of examples/jobs/fact_orders_daily.yaml as separate bin/floe processes racing on one
 * embedded catalog home (SQLite JDBC catalog, local warehouse): every process commits through its
 * own JVM, so nothing in Floe serializes them but the catalog. The final table is read through
 * Iceberg: a slice holds exactly the rows of the source as some run read it, the other slices are
 * unchanged, and no key is duplicated.
 */
class ConcurrentRunsITCase {
  static final LocalDate DAY = LocalDate.parse("2026-10-03");
  static final LocalDate OTHER_DAY = LocalDate.parse("2026-10-04");

  @TempDir Path work;

  /** How the source changes before each run of scenario 1. */
  enum SourceChange {
    /** Upstream corrects the day: its rows are replaced (an overwrite of staging). */
    CORRECTION,
    /** Late rows arrive for the day: one more row is appended. */
    LATE_ROWS
  }

  /**
   * Scenario 1: four runs of one day started together; the source changes before they start
   * (version 1) and again each time the test sees (in Iceberg's scan log) that one of them has
   * scanned the newest version while at least two have not scanned yet (so the last reads the final
   * version, mostly with one other run): so they read different snapshots, and the first readers
   * are still writing, checking or committing when the source changes under them and when the
   * others commit. The day ends with the rows of one source version that a run read (or of the load
   * before the race); no run that exited 0 read a newer version than that; after corrections, a run
   * that read the newest version wins (a run whose source was corrected under it must not commit).
   * -Dfloe.races.start=staggered starts run k+1 only after run k's scan.
   */
  @ParameterizedTest
  @EnumSource(SourceChange.class)
  void fourRunsOfOneSliceOnSuccessiveSourceSnapshotsLeaveOneRunsRows(SourceChange change)
      throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      home.replaceStaging(OTHER_DAY, List.of(order(2001, "70.00", OTHER_DAY)));
      List<Order> version0 = List.of(order(1001, "10.00"), order(1002, "20.00"));
      home.replaceStaging(DAY, version0);
      home.floe("run", home.job, "--slice", DAY.toString());
      home.floe("run", home.job, "--slice", OTHER_DAY.toString());
      List<String> otherDay = home.factRows(OTHER_DAY);

      boolean staggered = "staggered".equals(System.getProperty("floe.races.start"));
      RaceReport race =
          new RaceReport(
              "scenario 1: 4 runs of " + DAY + ", " + change + (staggered ? ", staggered" : ""));
      Source source = new Source(home, change, version0);
      String[] run = {"run", home.job, "--slice", DAY.toString(), "--json"};
      if (staggered) {
        for (int k = 1; k <= 4; k++) {
          if (k > 1) {
            FloeProcess previous = race.processes().get(k - 2);
            assertThat(previous.awaitScan(STAGING_SCANNED))
                .as(previous.describe())
                .isNotEqualTo(-1L);
          }
          source.change(race);
          race.start(home, "run" + k, run);
        }
      } else {
        source.change(race);
        for (int k = 1; k <= 4; k++) {
          race.start(home, "run" + k, run);
        }
        Set<FloeProcess> scanned = new HashSet<>();
        while (true) {
          boolean newestRead = false;
          int waiting = 0;
          for (FloeProcess p : race.processes()) {
            if (scanned.contains(p)) {
              continue;
            }
            Set<Long> read = p.scannedSnapshots(STAGING_SCANNED);
            if (!read.isEmpty()) {
              scanned.add(p);
              newestRead |= read.contains(source.newest);
            } else if (p.isAlive()) {
              waiting++;
            }
          }
          if (waiting == 0) {
            break;
          }
          // Two still to scan: the last of them reads the final version.
          if (newestRead && waiting >= 2) {
            source.change(race);
          }
          Thread.sleep(50);
        }
      }
      race.awaitAll();

      Map<Long, Integer> versionOf = source.versionOf;
      int newest = source.versions;
      List<String> slice = home.factRows(DAY);
      int held = versionHeld(home.stagingVersions(DAY), versionOf, slice);
      for (FloeProcess p : race.processes()) {
        race.read(
            p,
            "v"
                + readVersions(p, versionOf)
                + " (lineage: v"
                + versionOf.getOrDefault(RaceReport.plannedSource(p), -1)
                + ")");
      }
      race.note(
          String.format(
              "slice %s holds %s = source v%d (newest v%d); %s unchanged: %s",
              DAY,
              RaceHome.label(slice),
              held,
              newest,
              OTHER_DAY,
              otherDay.equals(home.factRows(OTHER_DAY))));
      String table = race.print(home.factHistory());

      race.assertExitCodes(home);
      assertThat(held).as("the slice holds no source version's rows" + table).isNotNegative();
      assertThat(home.factRows(OTHER_DAY)).as(table).isEqualTo(otherDay);
      assertThat(home.duplicateKeys()).as(table).isEmpty();
      boolean heldByAWinner = held == 0;
      for (FloeProcess p : race.processes()) {
        if (p.exitCode() == 0) {
          List<Integer> read = readVersions(p, versionOf);
          assertThat(read)
              .as("%s exited 0 but read a newer source than the slice holds%s", p.name(), table)
              .allMatch(v -> v <= held);
          heldByAWinner |= read.contains(held);
        }
      }
      assertThat(heldByAWinner)
          .as("the slice holds v%d, which no run that exited 0 read%s", held, table)
          .isTrue();
    }
  }

  /** The staging table's day, changed version after version; versions are told apart by rows. */
  private static final class Source {
    private final RaceHome home;
    private final SourceChange change;
    private final Map<Long, Integer> versionOf = new LinkedHashMap<>();
    private List<Order> rows;
    private int versions;
    private long newest;

    /** {@code rows}: version 0, the staging table's rows of the day now. */
    Source(RaceHome home, SourceChange change, List<Order> rows) {
      this.home = home;
      this.change = change;
      this.rows = rows;
      newest = home.table(RaceHome.STAGING).currentSnapshot().snapshotId();
      versionOf.put(newest, 0);
    }

    /** The next version: every amount changes and one order is added (correction), or appended. */
    void change(RaceReport race) {
      int k = ++versions;
      Order added = order(1002 + k, k + "5.00");
      long snapshot;
      if (change == SourceChange.CORRECTION) {
        List<Order> next = new ArrayList<>();
        rows.forEach(o -> next.add(order(o.id(), k + "" + o.id() % 100 + ".00")));
        next.add(added);
        rows = next;
        snapshot = home.replaceStaging(DAY, rows);
      } else {
        snapshot = home.appendStaging(List.of(added));
      }
      versionOf.put(snapshot, k);
      newest = snapshot;
      race.note(String.format("source v%d committed at %.1f s", k, race.elapsed()));
    }
  }

  /**
   * Scenario 2: four runs of four different days of one table, started together, each on a changed
   * source; a fifth day, loaded before, must not move. Different slices never conflict: every run
   * commits, every day holds its new rows.
   */
  @Test
  void fourRunsOfDifferentSlicesStartedTogetherAllCommitTheirOwnSlice() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      List<LocalDate> days = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        days.add(OTHER_DAY.plusDays(1 + i));
      }
      home.replaceStaging(OTHER_DAY, List.of(order(2001, "70.00", OTHER_DAY)));
      home.floe("run", home.job, "--slice", OTHER_DAY.toString());
      List<String> otherDay = home.factRows(OTHER_DAY);
      for (int i = 0; i < 4; i++) {
        LocalDate day = days.get(i);
        home.replaceStaging(
            day, List.of(order(3000 + 10 * i, "1.00", day), order(3001 + 10 * i, "2.00", day)));
      }

      RaceReport race = new RaceReport("scenario 2: 4 runs of 4 days at once");
      Map<LocalDate, FloeProcess> runs = new LinkedHashMap<>();
      for (LocalDate day : days) {
        runs.put(
            day,
            race.start(
                home,
                "run" + day.getDayOfMonth(),
                "run",
                home.job,
                "--slice",
                day.toString(),
                "--json"));
      }
      race.awaitAll();

      List<Snapshot> history = home.factHistory();
      Map<LocalDate, List<String>> expected = new LinkedHashMap<>();
      for (LocalDate day : days) {
        List<Long> source = List.copyOf(home.stagingVersions(day).keySet());
        expected.put(day, home.stagingVersions(day).get(source.get(source.size() - 1)));
        race.read(
            runs.get(day),
            day
                + " -> "
                + RaceHome.label(home.factRows(day))
                + " (source "
                + RaceHome.label(expected.get(day))
                + ")");
      }
      race.note(interleaving(race));
      String table = race.print(history);

      race.assertExitCodes(home);
      for (LocalDate day : days) {
        FloeProcess run = runs.get(day);
        assertThat(run.exitCode()).as("a run of another slice is no conflict" + table).isZero();
        assertThat(home.factRows(day)).as(day + table).isEqualTo(expected.get(day));
      }
      assertThat(home.factRows(OTHER_DAY)).as(table).isEqualTo(otherDay);
      assertThat(home.duplicateKeys()).as(table).isEmpty();
    }
  }

  /**
   * Nothing lost: rows appended to the source after a run planned (and pinned) its source, but
   * before the run committed, are not in the slice, so the slice must show them as late rows (`floe
   * late plan`), the way it shows rows appended after the commit.
   */
  @Test
  void rowsAppendedToTheSourceWhileARunIsInFlightAreReportedAsLateRows() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      home.replaceStaging(DAY, List.of(order(1001, "10.00"), order(1002, "20.00")));
      List<String> read = home.stagingVersions(DAY).values().stream().reduce((a, b) -> b).get();
      RaceReport race = new RaceReport("late rows appended while a run is in flight");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      long scanned = run.awaitScan(STAGING_SCANNED);
      long appended = home.appendStaging(List.of(order(1003, "30.00")));
      race.awaitAll();
      JsonNode late = home.floeJson("late", "plan", home.job, "--as-of", OTHER_DAY.toString());
      race.note(
          "staging: the run scanned " + scanned + ", then order 1003 appended in " + appended);
      race.note("late plan: " + late.get("slices"));
      String table = race.print(home.factHistory());

      assertThat(run.exitCode()).as(table).isZero();
      // The run read the snapshot before the append (Iceberg's scan log, and the rows it loaded).
      assertThat(scanned).isNotEqualTo(-1L);
      assertThat(home.factRows(DAY)).as(table).isEqualTo(read);
      JsonNode slice = late.get("slices").get(0);
      assertThat(slice.get("late_rows").asLong())
          .as("order 1003 is in the source but not in the slice" + table)
          .isEqualTo(1);
      assertThat(slice.get("action").asText()).isEqualTo("rerun");
    }
  }

  /**
   * A correction that lands while a run is in flight: the run reads exactly the source snapshot its
   * lineage records (its Flink source is pinned to the one current at planning), so it either
   * planned after the correction and commits the corrected rows, or planned before it, reads the
   * old rows and stops at its commit with exit 4 (the source was rewritten in its slice while it
   * was in flight) leaving the table as it was; its rerun then loads the corrected rows. The
   * correction is made when the run's log shows the planner loading the staging table.
   */
  @Test
  void aRunReadsTheSourceSnapshotItsLineageRecordsWhenTheSourceIsCorrectedMidRun()
      throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      home.replaceStaging(DAY, List.of(order(1001, "10.00"), order(1002, "20.00")));
      List<String> before = home.factRows(DAY);
      RaceReport race = new RaceReport("a source correction between planning and scan");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      run.awaitLog("Table loaded by catalog: " + STAGING_SCANNED, 1);
      long corrected =
          home.replaceStaging(DAY, List.of(order(1001, "11.00"), order(1003, "33.00")));
      long scanned = run.awaitScan(STAGING_SCANNED);
      race.awaitAll();
      List<String> correctedRows =
          home.stagingVersions(DAY).values().stream().reduce((a, b) -> b).orElseThrow();
      Long planned = RaceReport.plannedSource(run);
      race.read(run, "scanned " + scanned + ", lineage " + planned);
      race.note("the correction is snapshot " + corrected);
      String table = race.print(home.factHistory());

      assertThat(scanned).as("the snapshot read is the one recorded" + table).isEqualTo(planned);
      if (scanned == corrected) {
        assertThat(run.exitCode()).as("it planned after the correction" + table).isZero();
        assertThat(home.factRows(DAY)).as(table).isEqualTo(correctedRows);
      } else {
        assertThat(run.exitCode())
            .as("it read the rows the correction replaced" + table)
            .isEqualTo(4);
        assertThat(home.factRows(DAY)).as("nothing committed" + table).isEqualTo(before);
        home.floe("run", home.job, "--slice", DAY.toString());
        assertThat(home.factRows(DAY))
            .as("the rerun loads the correction" + table)
            .isEqualTo(correctedRows);
      }
    }
  }

  /** Whether the processes were all alive at once: the latest start before the earliest end. */
  static String interleaving(RaceReport race) {
    long lastStart =
        race.processes().stream().mapToLong(FloeProcess::startedMillis).max().orElse(0);
    long firstEnd = race.processes().stream().mapToLong(FloeProcess::endedMillis).min().orElse(0);
    return String.format(
        "all alive together from %.1f s to %.1f s%s",
        lastStart / 1000.0, firstEnd / 1000.0, lastStart < firstEnd ? "" : " (NOT overlapping)");
  }

  /** The source version whose rows the slice holds, or -1. */
  private static int versionHeld(
      LinkedHashMap<Long, List<String>> versions,
      Map<Long, Integer> versionOf,
      List<String> slice) {
    int held = -1;
    for (Map.Entry<Long, List<String>> v : versions.entrySet()) {
      if (v.getValue().equals(slice) && versionOf.containsKey(v.getKey())) {
        held = Math.max(held, versionOf.get(v.getKey()));
      }
    }
    return held;
  }

  /** The source versions a process's Flink source scanned (Iceberg's own log line). */
  private static List<Integer> readVersions(FloeProcess p, Map<Long, Integer> versionOf) {
    return p.scannedSnapshots(STAGING_SCANNED).stream()
        .map(s -> versionOf.getOrDefault(s, -1))
        .toList();
  }

  static Order order(long id, String amount) {
    return order(id, amount, DAY);
  }

  static Order order(long id, String amount, LocalDate day) {
    return new Order(id, 10 + id % 7, amount, day);
  }
}
