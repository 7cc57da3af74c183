package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Per loaded slice: open or sealed as of the given instant, late rows counted from the sources, and
 * the action. A day slice of Oct k seals at Oct k+4 under the P3D window used here.
 */
class LatePlannerTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private Table staging;

  /** Oct 1 to 4 loaded from staging; then 1 late row for Oct 1 and 2 for Oct 3. */
  @BeforeEach
  void fourLoadedDaysAndLateRows() {
    fact = LineageCommits.create(catalog.catalog(), "s.fact", policy("P3D", "report"));
    staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    LineageCommits.append(staging, "2026-10-01", 2);
    for (int day = 1; day <= 4; day++) {
      LineageCommits.load(fact, "2026-10-0" + day, "r" + day, "fact_daily", staging, 2);
    }
    LineageCommits.append(staging, "2026-10-01", 1);
    LineageCommits.append(staging, "2026-10-03", 2);
  }

  @Test
  void insideTheWindowExactlyTheSlicesWithLateRowsAreRerun() {
    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(plan.slices())
        .extracting(s -> s.slice().value(), LateSlice::state, LateSlice::knownLateRows)
        .containsExactly(
            tuple("2026-10-01", WindowState.OPEN, 1L),
            tuple("2026-10-02", WindowState.OPEN, 0L),
            tuple("2026-10-03", WindowState.OPEN, 2L),
            tuple("2026-10-04", WindowState.OPEN, 0L));
    assertThat(actions(plan)).containsExactly("rerun", "none", "rerun", "none");
    assertThat(plan.reruns())
        .extracting(s -> s.slice().value())
        .containsExactly("2026-10-01", "2026-10-03");
    assertThat(plan.slices().get(2).note())
        .isEqualTo("2 late rows; open until 2026-10-07T00:00:00Z");
    assertThat(plan.slices().get(2).latest().lineage().runId()).isEqualTo("r3");
    assertThat(plan.window()).isEqualTo("P3D (after_window: report)");
    assertThat(plan.sourceSnapshots())
        .containsExactly(Map.entry("s.staging", staging.currentSnapshot().snapshotId()));
  }

  @Test
  void aDaySliceTheJobCannotRunAfterARepartitionByMonthIsListedWithTheReasonNotRerun() {
    fact.updateSpec()
        .removeField("d")
        .addField(org.apache.iceberg.expressions.Expressions.month("d"))
        .commit();

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(actions(plan)).containsExactly("cannot-rerun", "none", "cannot-rerun", "none");
    assertThat(plan.reruns()).isEmpty();
    assertThat(plan.slices().get(0).note())
        .startsWith("1 late row; open until")
        .contains("it cannot be rerun as loaded: Cannot use --slice 2026-10-01 on s.fact");
  }

  @Test
  void aSealedSliceWithLateRowsTheJobCannotRerunStopsTheSealingMarker() {
    var properties = fact.updateProperties();
    policy("P3D", "reopen").forEach(properties::set);
    properties.commit();
    fact.updateSpec()
        .removeField("d")
        .addField(org.apache.iceberg.expressions.Expressions.month("d"))
        .commit();

    LatePlan plan = plan("2026-10-10T00:00:00Z");

    assertThat(actions(plan)).containsExactly("cannot-rerun", "none", "cannot-rerun", "none");
    assertThat(plan.sealedThroughAfter(Set.of())).isEmpty();
    assertThat(plan.sealedThroughStoppedBy(Set.of()))
        .contains("2026-10-01 cannot be rerun as loaded");
  }

  @Test
  void aSliceWhoseNewerRunAnOperatorRevertedIsListedButNotRerunUntilTheJobLoadsItAgain() {
    // r5 loads Oct 3 with its two late rows; an operator reverts it: the slice holds r3's rows.
    LineageCommits.load(fact, "2026-10-03", "r5", "fact_daily", staging, 4);
    LineageCommits.revert(fact, "2026-10-03", "r5", 2);

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(actions(plan)).containsExactly("rerun", "none", "reverted", "none");
    assertThat(plan.reruns()).extracting(s -> s.slice().value()).containsExactly("2026-10-01");
    assertThat(plan.slices().get(2).knownLateRows()).isEqualTo(2L);
    assertThat(plan.slices().get(2).note())
        .startsWith("2 late rows; open until 2026-10-07T00:00:00Z; run r5 of this slice was")
        .contains("reverted after this load, so it is not rerun");

    // A new load by the job (its operator's decision) makes the slice plannable again.
    LineageCommits.append(staging, "2026-10-03", 1);
    LineageCommits.load(fact, "2026-10-03", "r6", "fact_daily", staging, 2);
    LineageCommits.append(staging, "2026-10-03", 1);
    assertThat(actions(plan("2026-10-04T12:00:00Z")))
        .containsExactly("rerun", "none", "rerun", "none");
  }

  @Test
  void anotherJobsRevertedRunDoesNotHideThisJobsRevertedRunOfTheSlice() {
    LineageCommits.load(fact, "2026-10-03", "r5", "fact_daily", staging, 4);
    LineageCommits.revert(fact, "2026-10-03", "r5", 2);
    LineageCommits.load(fact, "2026-10-03", "o6", "fact_other", staging, 3);
    LineageCommits.revert(fact, "2026-10-03", "o6", 2);

    assertThat(actions(plan("2026-10-04T12:00:00Z")))
        .containsExactly("rerun", "none", "reverted", "none");
  }

  @Test
  void aRevertedMonthRunHoldsTheDaysItCovered() {
    loadOctoberAsFactDaily();
    Slice october = LineageCommits.month("2026-10");
    fact.newOverwrite()
        .overwriteByRowFilter(october.toExpression())
        .set(LineageKeys.REVERTS, "m1")
        .set(LineageKeys.RUN_ID, "revert-of-m1")
        .set(LineageKeys.MODE, "revert")
        .set(LineageKeys.JOB, "fact_daily")
        .set(LineageKeys.SLICE, october.label())
        .commit();

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(actions(plan)).containsExactly("reverted", "none", "reverted", "none");
    assertThat(plan.slices().get(0).note())
        .contains("run m1 (slice d=[2026-10-01,2026-11-01), overlapping this one) was reverted");
  }

  @Test
  void aNewerDayRunInsideAnOlderMonthRunCountsItsOwnDayAndTheMonthCountsTheRest() {
    loadOctoberAsFactDaily();
    LineageCommits.append(staging, "2026-10-05", 2);
    LineageCommits.load(fact, "2026-10-05", "r5", "fact_daily", staging, 2);
    // The month loaded nothing new since the day run read Oct 5: it has no late rows.
    assertThat(plan("2026-10-06").slices())
        .extracting(s -> s.slice().label(), LateSlice::knownLateRows)
        .containsExactly(
            tuple(LineageCommits.month("2026-10").label(), 0L),
            tuple(LineageCommits.day("2026-10-05").label(), 0L));

    LineageCommits.append(staging, "2026-10-05", 1);
    LineageCommits.append(staging, "2026-10-20", 3);
    LatePlan plan = plan("2026-10-06");

    assertThat(plan.slices())
        .extracting(s -> s.slice().label(), LateSlice::knownLateRows)
        .containsExactly(
            tuple(LineageCommits.month("2026-10").label(), 3L),
            tuple(LineageCommits.day("2026-10-05").label(), 1L));
    assertThat(plan.slices().get(0).note()).contains("3 late rows");
  }

  @Test
  void
      aQueryThatMayReadBeyondItsSliceHasUnknownLateRowsOnceItsSourceChangedUnlessRowsArrivedInIt() {
    // Oct 2 and 4 received no rows of their own, but the job's window reads the days before.
    LatePlan plan = planReadingBeyond("2026-10-04T12:00:00Z");

    assertThat(plan.slices())
        .extracting(s -> s.slice().value(), LateSlice::lateRowsUnknown, LateSlice::knownLateRows)
        .containsExactly(
            tuple("2026-10-01", false, 1L),
            tuple("2026-10-02", true, 0L),
            tuple("2026-10-03", false, 2L),
            tuple("2026-10-04", true, 0L));
    assertThat(actions(plan)).containsExactly("rerun", "rerun", "rerun", "rerun");
    assertThat(plan.slices().get(1).note())
        .contains("the job's query may read rows of s.staging outside the slice (a window over");

    // Sealed under reopen: rows known to have arrived in Oct 1 reopen it; unknown ones never do.
    fact.updateProperties().set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen").commit();
    assertThat(actions(planReadingBeyond("2026-10-06")))
        .containsExactly("rerun (reopened)", "report", "rerun", "rerun");
  }

  private LatePlan planReadingBeyond(String asOf) {
    return LatePlanner.of(catalog.catalog(), "s.fact", "d")
        .job("fact_daily")
        .readsBeyondSlice(slice -> Optional.of("a window over the two days before"))
        .asOf(AsOf.parse("--as-of", asOf))
        .plan();
  }

  @Test
  void aSourceThatDidNotChangeHasNoLateRowsEvenWithoutTheSliceColumn() {
    Table dim =
        catalog.create(
            "s.dim",
            new org.apache.iceberg.Schema(
                org.apache.iceberg.types.Types.NestedField.required(
                    1, "id", org.apache.iceberg.types.Types.LongType.get())),
            org.apache.iceberg.PartitionSpec.unpartitioned());
    TableRows.append(dim, TableRows.row(dim, Map.of("id", 1L)));
    staging.refresh();
    LineageCommits.load(fact, "2026-10-05", "r9", "fact_daily", 1, null, List.of(staging, dim));

    LateSlice oct5 = plan("2026-10-05T12:00:00Z").slices().get(4);

    assertThat(oct5.lateRowsUnknown()).isFalse();
    assertThat(actions(plan("2026-10-05T12:00:00Z")).get(4)).isEqualTo("none");
  }

  @Test
  void theAsOfInstantDecidesOpenOrSealedAndTheSameInstantGivesTheSamePlan() {
    LatePlan early = plan("2026-10-04T12:00:00Z");
    LatePlan late = plan("2026-10-06");

    assertThat(late.slices())
        .extracting(LateSlice::state)
        .containsExactly(
            WindowState.SEALED, WindowState.SEALED, WindowState.OPEN, WindowState.OPEN);
    assertThat(actions(late)).containsExactly("report", "none", "rerun", "none");
    assertThat(late.slices().get(0).note())
        .isEqualTo(
            "1 late row; sealed since 2026-10-05T00:00:00Z: reported, not loaded"
                + " (after_window: report)");
    assertThat(actions(early)).containsExactly("rerun", "none", "rerun", "none");
    assertThat(plan("2026-10-06")).isEqualTo(late);
  }

  @Test
  void aSliceBehindTheSealingMarkerIsSealedWhateverTheAsOfSays() {
    // An apply as of Oct 8 sealed Oct 1 to 4; a retried task as of Oct 4 must not reopen them.
    fact.updateProperties().set(FloeTableProperties.SEALED_THROUGH, "2026-10-04").commit();

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(plan.slices())
        .extracting(LateSlice::state)
        .containsExactly(
            WindowState.SEALED, WindowState.SEALED, WindowState.SEALED, WindowState.OPEN);
    assertThat(actions(plan)).containsExactly("report", "none", "report", "none");
    assertThat(plan.reruns()).isEmpty();
    assertThat(plan.slices().get(2).note())
        .isEqualTo(
            "2 late rows; sealed by floe.sealed-through=2026-10-04 (its window closes at"
                + " 2026-10-07T00:00:00Z): reported, not loaded (after_window: report)");
    assertThat(plan.sealedThroughAfter(List.of())).contains(Instant.parse("2026-10-04T00:00:00Z"));
  }

  @Test
  void onlyReopenRerunsASliceBehindTheSealingMarker() {
    fact.updateProperties()
        .set(FloeTableProperties.SEALED_THROUGH, "2026-10-04")
        .set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen")
        .commit();

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(actions(plan))
        .containsExactly("rerun (reopened)", "none", "rerun (reopened)", "none");
    assertThat(plan.slices().get(2).note())
        .contains("sealed by floe.sealed-through=2026-10-04")
        .endsWith("reopened (after_window: reopen)");
  }

  @Test
  void reopenRerunsASealedSliceThatReceivedLateRows() {
    fact.updateProperties().set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen").commit();

    LatePlan plan = plan("2026-10-06");

    assertThat(actions(plan)).containsExactly("rerun (reopened)", "none", "rerun", "none");
    assertThat(plan.reruns())
        .extracting(s -> s.slice().value())
        .containsExactly("2026-10-01", "2026-10-03");
  }

  @Test
  void anUnknownCountIsRerunWhileOpenAndOnlyReportedOnceSealed() {
    Table gone = LineageCommits.create(catalog.catalog(), "s.gone", Map.of());
    LineageCommits.append(gone, "2026-10-01", 1);
    LineageCommits.load(fact, "2026-10-01", "r5", "fact_daily", gone, 1);
    LineageCommits.load(fact, "2026-10-04", "r6", "fact_daily", gone, 1);
    catalog.catalog().dropTable(TableIdentifier.of("s", "gone"));
    fact.updateProperties().set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen").commit();

    LatePlan plan = plan("2026-10-06");

    LateSlice oct1 = plan.slices().get(0);
    LateSlice oct4 = plan.slices().get(3);
    assertThat(oct4.action()).isEqualTo(LateAction.RERUN);
    assertThat(oct4.lateRowsText()).isEqualTo("unknown");
    assertThat(oct4.note())
        .startsWith("late rows unknown (s.gone: unknown (cannot load source table s.gone")
        .contains("this job loaded it, so it is rerun");
    assertThat(oct1.action()).isEqualTo(LateAction.REPORT);
    assertThat(oct1.note())
        .contains("a sealed slice is reopened only for rows known to have arrived");
    assertThat(plan.sourceSnapshots()).containsEntry("s.gone", null);
  }

  @Test
  void aSliceAnotherJobLoadedIsListedAsOtherJobAndNeverRerunNotEvenWithLateRowsOrAnUnknownCount() {
    // Job fact_other loads Oct 5 from its own source, which then receives a late row for Oct 5,
    // and Oct 6 from a source that is then dropped (its count would be unknown).
    Table other = LineageCommits.create(catalog.catalog(), "s.other", Map.of());
    LineageCommits.append(other, "2026-10-05", 2);
    LineageCommits.load(fact, "2026-10-05", "b5", "fact_other", other, 2);
    LineageCommits.append(other, "2026-10-05", 1);
    Table gone = LineageCommits.create(catalog.catalog(), "s.gone", Map.of());
    LineageCommits.append(gone, "2026-10-06", 1);
    LineageCommits.load(fact, "2026-10-06", "b6", "fact_other", gone, 1);
    catalog.catalog().dropTable(TableIdentifier.of("s", "gone"));

    LatePlan plan = plan("2026-10-06T12:00:00Z");

    assertThat(plan.slices())
        .extracting(s -> s.slice().value(), s -> s.action().text(), LateSlice::loadedBy)
        .containsExactly(
            tuple("2026-10-01", "report", "fact_daily"),
            tuple("2026-10-02", "none", "fact_daily"),
            tuple("2026-10-03", "rerun", "fact_daily"),
            tuple("2026-10-04", "none", "fact_daily"),
            tuple("2026-10-05", "other-job", "fact_other"),
            tuple("2026-10-06", "other-job", "fact_other"));
    assertThat(plan.reruns()).extracting(s -> s.slice().value()).containsExactly("2026-10-03");
    LateSlice oct5 = plan.slices().get(4);
    assertThat(oct5.state()).isEqualTo(WindowState.OPEN);
    assertThat(oct5.lateRowsText()).isEqualTo("-");
    assertThat(oct5.note())
        .isEqualTo(
            "loaded by job fact_other, not by fact_daily: never rerun by fact_daily, whose query"
                + " would replace fact_other's rows; its late rows are for `floe late` with"
                + " fact_other's manifest");
    // Its sources are not this job's: they are not even opened.
    assertThat(plan.sourceSnapshots()).containsOnlyKeys("s.staging");
  }

  @Test
  void aNewerLoadByAnotherJobOfAnOverlappingSliceHandsEveryDayItCoversToThatJob() {
    // fact_monthly reloads all of October after fact_daily's day loads: their rows are gone.
    LineageCommits.loadOctober(fact, "fact_monthly", null);

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(plan.slices())
        .filteredOn(s -> s.slice().unit() == SliceUnit.DAY)
        .extracting(s -> s.action().text(), LateSlice::loadedBy)
        .containsOnly(tuple("other-job", "fact_monthly"))
        .hasSize(4);
    assertThat(plan.reruns()).isEmpty();
    assertThat(plan.slices().get(0).note())
        .startsWith("loaded by job fact_monthly (a newer load of an overlapping slice), not by");
  }

  @Test
  void aNewerLoadByTheSameJobOfACoveringSliceHoldsTheDaysAndTheirEarlierRowsAreNotLate() {
    // fact_daily reloads all of October after the late rows for Oct 1 and 3 arrived: it loaded
    // them.
    loadOctoberAsFactDaily();

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    assertThat(plan.slices())
        .extracting(s -> s.slice().value(), LateSlice::knownLateRows)
        .containsExactly(tuple("2026-10", 0L));
    assertThat(plan.reruns()).isEmpty();
  }

  @Test
  void aDayACoveringLoadOfThisJobHoldsIsStillPlannedWhenAnotherJobTookThatLoadOver() {
    loadOctoberAsFactDaily();
    LineageCommits.load(fact, "2026-10-05", "o5", "fact_other", staging, 1);
    LineageCommits.append(staging, "2026-10-03", 2);

    LatePlan plan = plan("2026-10-04T12:00:00Z");

    // The month is fact_other's now (a newer overlapping load): the days stay fact_daily's.
    assertThat(plan.slices())
        .filteredOn(s -> s.slice().value().equals("2026-10-03"))
        .singleElement()
        .satisfies(s -> assertThat(s.knownLateRows()).isEqualTo(4L));
  }

  @Test
  void anOpenMonthHoldingANewerLoadOfASealedDayWithReportedLateRowsIsNotRerun() {
    loadOctoberAsFactDaily();
    LineageCommits.append(staging, "2026-10-05", 2);
    LineageCommits.load(fact, "2026-10-05", "r5", "fact_daily", staging, 2);
    LineageCommits.append(staging, "2026-10-02", 1); // late for the month, open until Nov 4
    // Oct 5 sealed on Oct 9 and has no late rows: the month's rerun rewrites it unchanged.
    assertThat(plan("2026-10-20").slices())
        .extracting(s -> s.slice().value(), s -> s.action().text())
        .containsExactly(tuple("2026-10", "rerun"), tuple("2026-10-05", "none"));

    LineageCommits.append(staging, "2026-10-05", 1); // late for the sealed day: reported only
    LatePlan plan = plan("2026-10-20");

    assertThat(plan.slices())
        .extracting(s -> s.slice().value(), s -> s.action().text(), LateSlice::knownLateRows)
        .containsExactly(tuple("2026-10", "report", 1L), tuple("2026-10-05", "report", 1L));
    assertThat(plan.slices().get(0).state()).isEqualTo(WindowState.OPEN);
    assertThat(plan.slices().get(0).note())
        .startsWith("1 late row; open until")
        .contains("not rerun: it holds 2026-10-05, sealed, whose late rows are reported");
    assertThat(plan.reruns()).isEmpty();
  }

  /** fact_daily loads all of October as one slice, from staging as it is now. */
  private void loadOctoberAsFactDaily() {
    LineageCommits.loadOctober(fact, "fact_daily", staging);
  }

  @Test
  void withoutALateDataPolicyEverySliceStaysOpen() {
    fact.updateProperties()
        .remove(FloeTableProperties.LATE_DATA_WINDOW)
        .remove(FloeTableProperties.LATE_DATA_AFTER_WINDOW)
        .commit();

    LatePlan plan = plan("2030-01-01");

    assertThat(plan.slices()).allSatisfy(s -> assertThat(s.state()).isEqualTo(WindowState.OPEN));
    assertThat(actions(plan)).containsExactly("rerun", "none", "rerun", "none");
    assertThat(plan.slices().get(1).note()).isEqualTo("no late rows; open (no late-data window)");
    assertThat(plan.window()).isEqualTo("none");
  }

  @Test
  void aColumnThatIsNotTemporalOrAMissingAsOfIsRefused() {
    assertThatThrownBy(
            () ->
                LatePlanner.of(catalog.catalog(), "s.fact", "id")
                    .job("fact_daily")
                    .asOf(Instant.EPOCH)
                    .plan())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot plan late data for s.fact: it has no date or timestamp column 'id' to cut"
                + " slices on");
    assertThatThrownBy(
            () -> LatePlanner.of(catalog.catalog(), "s.fact", "d").job("fact_daily").plan())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot plan late data for s.fact: no as-of instant given");
    assertThatThrownBy(
            () -> LatePlanner.of(catalog.catalog(), "s.fact", "d").asOf(Instant.EPOCH).plan())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot plan late data for s.fact: no job given (only the slices a job loaded are"
                + " its to rerun)");
  }

  private LatePlan plan(String asOf) {
    return LatePlanner.of(catalog.catalog(), "s.fact", "d")
        .job("fact_daily")
        .asOf(AsOf.parse("--as-of", asOf))
        .plan();
  }

  private static List<String> actions(LatePlan plan) {
    return plan.slices().stream().map(s -> s.action().text()).toList();
  }

  static Map<String, String> policy(String window, String afterWindow) {
    return Map.of(
        FloeTableProperties.LATE_DATA_WINDOW, window,
        FloeTableProperties.LATE_DATA_AFTER_WINDOW, afterWindow);
  }
}
