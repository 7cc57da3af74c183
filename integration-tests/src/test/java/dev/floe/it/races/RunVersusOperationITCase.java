package dev.floe.it.races;

import static dev.floe.it.races.ConcurrentRunsITCase.DAY;
import static dev.floe.it.races.ConcurrentRunsITCase.OTHER_DAY;
import static dev.floe.it.races.ConcurrentRunsITCase.order;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.it.races.RaceHome.Order;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 3: a run of examples/jobs/fact_orders_daily.yaml for one day (a bin/floe process) racing
 * an operator's command on the same table (another bin/floe process): compaction of the day, a
 * rollback, a revert and a publish. The command starts once the run's Flink source has scanned the
 * staging table, so it lands while the run is writing, checking or committing (set
 * -Dfloe.races.op-start=together to start both at once, or -Dfloe.races.op-delay-ms=N to start the
 * command N ms after the scan). The final table is read through Iceberg: the day holds the rows one
 * of them left, consistently with the exit codes; the other day is unchanged; no key is duplicated.
 */
class RunVersusOperationITCase {
  private static final boolean TOGETHER =
      "together".equals(System.getProperty("floe.races.op-start"));

  /** Exploration: a pause between the run's scan and the command's start. */
  private static final long OP_DELAY_MS = Long.getLong("floe.races.op-delay-ms", 0);

  @TempDir Path work;

  private static final List<Order> V_A = List.of(order(1001, "10.00"), order(1002, "20.00"));
  private static final List<Order> V_B =
      List.of(order(1001, "11.00"), order(1002, "21.00"), order(1003, "31.00"));
  private static final List<Order> V_C =
      List.of(order(1001, "12.00"), order(1002, "22.00"), order(1004, "42.00"));

  /** A compaction changes no row: the run commits its rows whichever commits first. */
  @Test
  void aRunRacingTheCompactionOfItsSliceCommitsAndTheSliceHoldsItsRows() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      List<String> otherDay = start(home);
      // Six rows written by three writers: three small files for the compaction to merge.
      home.replaceStaging(
          DAY,
          List.of(
              order(1001, "1.00"),
              order(1002, "2.00"),
              order(1003, "3.00"),
              order(1004, "4.00"),
              order(1005, "5.00"),
              order(1006, "6.00")));
      home.floe("run", home.job, "--slice", DAY.toString(), "--parallelism", "3");
      assertThat(home.factDataFiles(DAY)).isGreaterThan(1);
      home.replaceStaging(DAY, V_C);
      List<String> newRows = home.stagingVersions(DAY).values().stream().reduce((a, b) -> b).get();

      RaceReport race = new RaceReport("scenario 3a: run " + DAY + " vs maintain --compact");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      FloeProcess compact =
          race.start(
              home,
              "compact",
              "maintain",
              RaceHome.FACT,
              "--compact",
              "--slice",
              DAY.toString(),
              "--json");
      race.awaitAll();
      String table = finish(home, race, otherDay);

      assertThat(run.exitCode()).as("a compaction never makes a run fail" + table).isZero();
      assertThat(home.factRows(DAY)).as(table).isEqualTo(newRows);
    }
  }

  /**
   * Rollback to before run B while run C is in flight: if the rollback lands, the day holds A's
   * rows (and C, if it committed first, stays reachable through the rollback's tag); if it is
   * refused, C committed and the day holds C's rows.
   */
  @Test
  void aRunRacingARollbackEndsWithEitherTheRollbackOrTheRunNeverAMix() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      List<String> otherDay = start(home);
      List<String> rowsA = home.factRows(DAY);
      String runB = load(home, V_B);
      home.replaceStaging(DAY, V_C);
      List<String> rowsC = newestSource(home);

      RaceReport race = new RaceReport("scenario 3b: run " + DAY + " vs rollback --before-run B");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      awaitScanUnlessTogether(run);
      FloeProcess rollback =
          race.start(home, "rollback", "rollback", RaceHome.FACT, "--before-run", runB, "--json");
      race.awaitAll();
      String table = finish(home, race, otherDay);

      if (rollback.exitCode() == 0) {
        assertThat(home.factRows(DAY)).as("rolled back: A's rows" + table).isEqualTo(rowsA);
        if (run.exitCode() == 0) {
          assertReachable(home, snapshotOf(run), table);
        }
      } else {
        assertThat(run.exitCode()).as("the rollback yielded to the run" + table).isZero();
        assertThat(home.factRows(DAY)).as(table).isEqualTo(rowsC);
      }
    }
  }

  /**
   * Revert run B while run C is in flight: if the revert lands, the day holds A's rows again; if
   * not, C committed and the day holds C's rows.
   */
  @Test
  void aRunRacingARevertEndsWithEitherTheRevertOrTheRun() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      List<String> otherDay = start(home);
      List<String> rowsA = home.factRows(DAY);
      String runB = load(home, V_B);
      home.replaceStaging(DAY, V_C);
      List<String> rowsC = newestSource(home);

      RaceReport race = new RaceReport("scenario 3c: run " + DAY + " vs revert --run B");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      awaitScanUnlessTogether(run);
      FloeProcess revert =
          race.start(home, "revert", "revert", RaceHome.FACT, "--run", runB, "--json");
      race.awaitAll();
      String table = finish(home, race, otherDay);

      if (revert.exitCode() == 0) {
        assertThat(home.factRows(DAY)).as("reverted: A's rows" + table).isEqualTo(rowsA);
        assertThat(run.exitCode()).as("the run cannot commit over the revert" + table).isEqualTo(4);
      } else {
        assertThat(run.exitCode()).as("the revert yielded to the run" + table).isZero();
        assertThat(home.factRows(DAY)).as(table).isEqualTo(rowsC);
      }
    }
  }

  /**
   * Publish run P (committed with --publish manual to its audit branch) while run C, which read a
   * newer source, is in flight: C always ends on main; P is published first or refused.
   */
  @Test
  void aRunRacingThePublishOfAnAuditedRunOnOlderSourcesEndsWithTheRunsRows() throws Exception {
    try (RaceHome home = new RaceHome(work)) {
      List<String> otherDay = start(home);
      home.replaceStaging(DAY, V_B);
      JsonNode audited =
          home.floeJson("run", home.job, "--slice", DAY.toString(), "--publish", "manual");
      String runP = audited.get("run_id").asText();
      home.replaceStaging(DAY, V_C);
      List<String> rowsC = newestSource(home);

      RaceReport race = new RaceReport("scenario 3d: run " + DAY + " vs publish --run P");
      FloeProcess run =
          race.start(home, "run", "run", home.job, "--slice", DAY.toString(), "--json");
      awaitScanUnlessTogether(run);
      FloeProcess publish =
          race.start(home, "publish", "publish", RaceHome.FACT, "--run", runP, "--json");
      race.awaitAll();
      String table = finish(home, race, otherDay);

      assertThat(run.exitCode()).as("P read older sources: C commits over it" + table).isZero();
      assertThat(home.factRows(DAY)).as(table).isEqualTo(rowsC);
    }
  }

  /** Staging holds A's rows and another day; both days loaded; returns the other day's rows. */
  private static List<String> start(RaceHome home) {
    home.replaceStaging(OTHER_DAY, List.of(order(2001, "70.00", OTHER_DAY)));
    home.replaceStaging(DAY, V_A);
    home.floe("run", home.job, "--slice", DAY.toString());
    home.floe("run", home.job, "--slice", OTHER_DAY.toString());
    return home.factRows(OTHER_DAY);
  }

  /** Changes the source to {@code rows} and loads the day in this JVM; returns the run id. */
  private static String load(RaceHome home, List<Order> rows) {
    home.replaceStaging(DAY, rows);
    return home.floeJson("run", home.job, "--slice", DAY.toString()).get("run_id").asText();
  }

  private static List<String> newestSource(RaceHome home) {
    return home.stagingVersions(DAY).values().stream().reduce((a, b) -> b).orElseThrow();
  }

  private static void awaitScanUnlessTogether(FloeProcess run) throws InterruptedException {
    if (!TOGETHER) {
      assertThat(run.awaitScan(RaceHome.STAGING_SCANNED)).as(run.describe()).isNotEqualTo(-1L);
      Thread.sleep(OP_DELAY_MS);
    }
  }

  /** Prints the race and checks what every race keeps; returns the printed table. */
  private static String finish(RaceHome home, RaceReport race, List<String> otherDay) {
    race.read(race.processes().get(0), "day now " + RaceHome.label(home.factRows(DAY)));
    race.note(ConcurrentRunsITCase.interleaving(race));
    String table = race.print(home.factHistory());
    race.assertExitCodes(home);
    assertThat(home.factRows(OTHER_DAY)).as("the other day" + table).isEqualTo(otherDay);
    assertThat(home.duplicateKeys()).as(table).isEmpty();
    return table;
  }

  private static long snapshotOf(FloeProcess run) {
    return Long.parseLong(run.json().get("snapshot_id").asText());
  }

  /** A snapshot on main or under a tag or branch (e.g. floe-before-rollback-1). */
  private static void assertReachable(RaceHome home, long snapshotId, String table) {
    Table fact = home.table(RaceHome.FACT);
    boolean reachable = false;
    for (SnapshotRef ref : fact.refs().values()) {
      reachable |= SnapshotUtil.isAncestorOf(fact, ref.snapshotId(), snapshotId);
    }
    assertThat(reachable)
        .as("run C's committed snapshot %d is on no branch or tag%s", snapshotId, table)
        .isTrue();
    Snapshot snapshot = fact.snapshot(snapshotId);
    assertThat(snapshot).isNotNull();
  }
}
