package dev.floe.catalog.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.window.AsOf;
import dev.floe.catalog.window.WindowState;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Slice states through the Java API on a real table: loaded, reloaded, late data pending and
 * sealed, with the window boundary exactly at slice end + window.
 */
class ReportTest {
  /** 2026-10-01 + 1 day + P3D: the first slice seals exactly here. */
  private static final Instant OCT_1_SEALS = Instant.parse("2026-10-05T00:00:00Z");

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private Table staging;

  /**
   * Oct 1 loaded once, Oct 2 twice, Oct 3 and 4 once; then the source gets 1 late row for Oct 1, 2
   * for Oct 3, and 5 for Oct 9 (a day no run loaded).
   */
  @BeforeEach
  void fourDays() {
    fact = LineageCommits.create(catalog.catalog(), "s.fact", window("P3D", "report"));
    staging = LineageCommits.create(catalog.catalog(), "s.staging", Map.of());
    for (String day : new String[] {"2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04"}) {
      LineageCommits.append(staging, day, 2);
    }
    LineageCommits.load(fact, "2026-10-01", "r1", "fact_daily", staging, 2);
    LineageCommits.load(fact, "2026-10-02", "r2", "fact_daily", staging, 2);
    LineageCommits.load(fact, "2026-10-02", "r3", "fact_daily", staging, 2);
    LineageCommits.load(fact, "2026-10-03", "r4", "fact_daily", staging, 2);
    LineageCommits.load(fact, "2026-10-04", "r5", "fact_daily", staging, 2);
    LineageCommits.append(staging, "2026-10-01", 1);
    LineageCommits.append(staging, "2026-10-03", 2);
    LineageCommits.append(staging, "2026-10-09", 5);
  }

  @Test
  void eachSliceGetsItsStateAtTheWindowBoundary() {
    ReportModel atBoundary = Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build();
    ReportModel justBefore =
        Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS.minusMillis(1)).build();

    assertThat(states(atBoundary))
        .containsExactly(
            Map.entry("2026-10-01", SliceState.SEALED),
            Map.entry("2026-10-02", SliceState.RELOADED),
            Map.entry("2026-10-03", SliceState.LATE_DATA_PENDING),
            Map.entry("2026-10-04", SliceState.LOADED));
    assertThat(states(justBefore)).containsEntry("2026-10-01", SliceState.LATE_DATA_PENDING);
    SliceStatus oct1 = atBoundary.slices().get(0);
    assertThat(oct1.window()).isEqualTo(WindowState.SEALED);
    assertThat(oct1.sealsAt()).isEqualTo(OCT_1_SEALS);
    assertThat(oct1.knownLateRows()).isEqualTo(1); // sealed, and its late row is still reported
    assertThat(atBoundary.slices().get(2).knownLateRows()).isEqualTo(2);
    assertThat(atBoundary.slices().get(1).loads()).hasSize(2);
    assertThat(atBoundary.counts())
        .containsExactly(
            Map.entry(SliceState.LOADED, 1),
            Map.entry(SliceState.RELOADED, 1),
            Map.entry(SliceState.LATE_DATA_PENDING, 1),
            Map.entry(SliceState.SEALED, 1));
  }

  @Test
  void aReopenPolicyTurnsLateRowsOfASealedSliceIntoPendingOnes() {
    fact.updateProperties().set(FloeTableProperties.LATE_DATA_AFTER_WINDOW, "reopen").commit();

    ReportModel model = Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build();

    assertThat(states(model)).containsEntry("2026-10-01", SliceState.LATE_DATA_PENDING);
    assertThat(model.slices().get(0).window()).isEqualTo(WindowState.SEALED);
  }

  @Test
  void withoutAWindowNoSliceIsEverSealed() {
    fact.updateProperties().remove(FloeTableProperties.LATE_DATA_WINDOW).commit();

    ReportModel model =
        Report.of(catalog.catalog(), "s.fact").asOf(Instant.parse("2100-01-01T00:00:00Z")).build();

    assertThat(model.hasWindow()).isFalse();
    assertThat(model.lateDataWindow()).isEqualTo("none");
    assertThat(model.counts()).containsEntry(SliceState.SEALED, 0);
    assertThat(states(model)).containsEntry("2026-10-01", SliceState.LATE_DATA_PENDING);
  }

  @Test
  void anAsOfDateMeansItsStartInUtc() {
    ReportModel fromDate =
        Report.of(catalog.catalog(), "s.fact").asOf(AsOf.parse("--as-of", "2026-10-05")).build();

    assertThat(fromDate)
        .isEqualTo(Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build());
  }

  @Test
  void aSourceThatCannotBeLoadedMakesLateRowsUnknownNotLate() {
    catalog.catalog().dropTable(TableIdentifier.of("s", "staging"));

    ReportModel model = Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build();

    SliceStatus oct3 = model.slices().get(2);
    assertThat(oct3.state()).isEqualTo(SliceState.LOADED);
    assertThat(oct3.lateRowsUnknown()).isTrue();
    assertThat(oct3.unknownReason().orElseThrow())
        .startsWith("s.staging: unknown (cannot load source table s.staging: Cannot load table");
    assertThat(model.inputs().sourceSnapshots()).containsEntry("s.staging", null);
  }

  @Test
  void theInputsNameTheMetadataTheCurrentSnapshotAndTheSourcesRead() {
    ReportModel model = Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build();
    staging.refresh();
    fact.refresh();

    assertThat(model.inputs().currentSnapshotId()).isEqualTo(fact.currentSnapshot().snapshotId());
    assertThat(model.inputs().metadataLocation()).endsWith(".metadata.json");
    assertThat(model.inputs().sourceSnapshots())
        .containsExactly(Map.entry("s.staging", staging.currentSnapshot().snapshotId()));
  }

  @Test
  void aSnapshotWhoseFloeKeysAnotherToolWroteIsOnThePageWithoutALineage() {
    // Report.of failed on it with "floe.rows is 'ten', not a whole number", naming no snapshot.
    fact.newAppend().set("floe.run-id", "by-hand").set("floe.rows", "ten").commit();
    long byHand = fact.currentSnapshot().snapshotId();

    ReportModel model = Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS).build();

    assertThat(model.snapshots())
        .filteredOn(s -> s.snapshotId() == byHand)
        .singleElement()
        .satisfies(s -> assertThat(s.lineage()).isEmpty());
    assertThat(model.slices()).hasSize(4);
  }

  @Test
  void anAsOfInstantIsRequired() {
    assertThatThrownBy(() -> Report.of(catalog.catalog(), "s.fact").build())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("Cannot build the report of s.fact: no as-of instant given");
    assertThatThrownBy(() -> Report.of(catalog.catalog(), "s.nope"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot load table s.nope");
  }

  @Test
  void aSliceBehindTheSealingMarkerIsSealedWhateverTheAsOfSays() {
    // floe late apply declared Oct 1 to 3 final; a report as of an earlier instant agrees.
    fact.updateProperties().set(FloeTableProperties.SEALED_THROUGH, "2026-10-04").commit();

    ReportModel early =
        Report.of(catalog.catalog(), "s.fact").asOf(OCT_1_SEALS.minusSeconds(86_400)).build();

    assertThat(states(early))
        .containsExactly(
            Map.entry("2026-10-01", SliceState.SEALED),
            Map.entry("2026-10-02", SliceState.SEALED),
            Map.entry("2026-10-03", SliceState.SEALED), // its 2 late rows are only reported
            Map.entry("2026-10-04", SliceState.LOADED));
    assertThat(early.slices().get(2).knownLateRows()).isEqualTo(2);
  }

  static Map<String, String> window(String window, String after) {
    return Map.of(
        FloeTableProperties.LATE_DATA_WINDOW, window,
        FloeTableProperties.LATE_DATA_AFTER_WINDOW, after);
  }

  @Test
  void daysANewerMonthLoadHoldsAreNotListedAsPendingLateData() {
    // The same job reloads all of October, reading the late rows of Oct 1 and Oct 3.
    LineageCommits.loadOctober(fact, "fact_daily", staging);

    ReportModel model =
        Report.of(catalog.catalog(), "s.fact").asOf(Instant.parse("2026-10-04T12:00:00Z")).build();

    assertThat(states(model)).containsExactly(Map.entry("2026-10", SliceState.LOADED));
    assertThat(model.counts())
        .containsEntry(SliceState.LOADED, 1)
        .containsEntry(SliceState.LATE_DATA_PENDING, 0)
        .containsEntry(SliceState.RELOADED, 0);
  }

  private static Map<String, SliceState> states(ReportModel model) {
    return model.slices().stream()
        .collect(
            Collectors.toMap(
                s -> s.slice().value(),
                SliceStatus::state,
                (a, b) -> a,
                java.util.LinkedHashMap::new));
  }
}
