package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceUnit;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sealing marker covers the gap-free run of sealed, final slices and never moves back. Days Oct
 * 1, 2, 3, 5 and 6 are loaded (Oct 4 never was); with a P1D window Oct k seals at Oct k+2.
 */
class SealedThroughTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;

  @BeforeEach
  void daysWithAGap() {
    fact =
        LineageCommits.create(catalog.catalog(), "s.fact", LatePlannerTest.policy("P1D", "report"));
    for (String day : List.of("01", "02", "03", "05", "06")) {
      LineageCommits.load(fact, "2026-10-" + day, "r" + day, "fact_daily", null, 1);
    }
  }

  @Test
  void theMarkerStopsAtTheFirstOpenSliceOrGap() {
    assertThat(plan("2026-10-01").sealedThroughAfter(Set.of())).isEmpty();
    assertThat(plan("2026-10-04").sealedThroughAfter(Set.of()))
        .contains(Instant.parse("2026-10-03T00:00:00Z"));
    // Everything is sealed by Oct 20, but Oct 4 was never loaded: the marker stops before it.
    assertThat(plan("2026-10-20").sealedThroughAfter(Set.of()))
        .contains(Instant.parse("2026-10-04T00:00:00Z"));
  }

  @Test
  void thePlanSaysWhatStopsTheMarkerAGapAnOpenSliceOrAPendingRerun() {
    assertThat(plan("2026-10-20").sealedThroughStoppedBy(Set.of()))
        .contains(
            "2026-10-04 has no load: none in the table's history covers 2026-10-04 to 2026-10-05"
                + " (an empty slice commits nothing, and a rolled-back load is gone; `floe run"
                + " --slice 2026-10-04 --force-commit` records its load)");
    assertThat(plan("2026-10-04").sealedThroughStoppedBy(Set.of()))
        .contains("2026-10-03 is open until 2026-10-05T00:00:00Z");
    LatePlan late = plan("2026-10-20");
    assertThat(late.sealedThroughStoppedBy(Set.of(late.slices().get(1).slice())))
        .contains("2026-10-02 waits for its rerun");
    LineageCommits.load(fact, "2026-10-04", "r04", "fact_daily", null, 0);
    assertThat(plan("2026-10-20").sealedThroughStoppedBy(Set.of())).isEmpty();
    assertThat(plan("2026-10-20").sealedThroughAfter(Set.of()))
        .contains(Instant.parse("2026-10-07T00:00:00Z"));
  }

  @Test
  void aGapIsNamedAsTheSliceFloeRunTakesForHoursAndMonthsToo() {
    LocalDateTime two = LocalDateTime.parse("2026-10-05T02:00");
    Slice threeOClock =
        new Slice(
            "ts", Slice.ColumnKind.TIMESTAMP, SliceUnit.HOUR, two.plusHours(1), two.plusHours(2));
    Slice december =
        new Slice(
            "d",
            Slice.ColumnKind.DATE,
            SliceUnit.MONTH,
            LocalDateTime.parse("2026-12-01T00:00"),
            LocalDateTime.parse("2027-01-01T00:00"));

    assertThat(
            SealedThrough.stoppedBy(
                two.toInstant(ZoneOffset.UTC), List.of(sealed(threeOClock)), Set.of()))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .startsWith("2026-10-05T02 has no load: none in the table's history covers")
                    .contains("`floe run --slice 2026-10-05T02 --force-commit`"));
    assertThat(
            SealedThrough.stoppedBy(
                Instant.parse("2026-11-01T00:00:00Z"), List.of(sealed(december)), Set.of()))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .startsWith(
                        "2026-11 has no load: none in the table's history covers 2026-11-01 to"
                            + " 2026-12-01")
                    .contains("`floe run --slice 2026-11 --force-commit`"));
  }

  @Test
  void aGapBeforeACoarserLoadIsNamedByASliceInsideTheGapNotOneOverSealedDays() {
    // Days Oct 1-3 loaded and sealed, then the month of November: the gap is Oct 4 to Nov 1. The
    // hint named `--slice 2026-10`, which forced rewrote the sealed Oct 1-3.
    Slice november =
        new Slice(
            "d",
            Slice.ColumnKind.DATE,
            SliceUnit.MONTH,
            LocalDateTime.parse("2026-11-01T00:00"),
            LocalDateTime.parse("2026-12-01T00:00"));
    Slice hour =
        new Slice(
            "ts",
            Slice.ColumnKind.TIMESTAMP,
            SliceUnit.DAY,
            LocalDateTime.parse("2026-10-06T00:00"),
            LocalDateTime.parse("2026-10-07T00:00"));

    assertThat(
            SealedThrough.stoppedBy(
                Instant.parse("2026-10-04T00:00:00Z"), List.of(sealed(november)), Set.of()))
        .contains(
            "2026-10-04 has no load: none in the table's history covers 2026-10-04 to 2026-11-01"
                + " (an empty slice commits nothing, and a rolled-back load is gone; `floe run"
                + " --slice 2026-10-04 --force-commit` records its load, and so for each later"
                + " slice of the gap)");
    assertThat(
            SealedThrough.stoppedBy(
                Instant.parse("2026-10-05T22:00:00Z"), List.of(sealed(hour)), Set.of()))
        .hasValueSatisfying(
            why -> assertThat(why).startsWith("2026-10-05T22 has no load: none in"));
  }

  private static LateSlice sealed(Slice slice) {
    return new LateSlice(
        slice, WindowState.SEALED, null, LateAction.NONE, "no late rows", null, List.of(), "job");
  }

  @Test
  void aSliceWhoseRerunFailedStopsTheMarker() {
    LatePlan plan = plan("2026-10-20");

    assertThat(plan.sealedThroughAfter(Set.of(plan.slices().get(1).slice())))
        .contains(Instant.parse("2026-10-02T00:00:00Z"));
  }

  @Test
  void anExistingMarkerIsContinuedAcrossWhatItAlreadyCovers() {
    fact.updateProperties().set(FloeTableProperties.SEALED_THROUGH, "2026-10-05").commit();

    LatePlan plan = plan("2026-10-20");

    assertThat(plan.sealedThrough()).isEqualTo(Instant.parse("2026-10-05T00:00:00Z"));
    assertThat(plan.sealedThroughAfter(Set.of())).contains(Instant.parse("2026-10-07T00:00:00Z"));
    // As of an earlier instant nothing new is sealed: the marker stays where it is.
    assertThat(plan("2026-10-02").sealedThroughAfter(Set.of()))
        .contains(Instant.parse("2026-10-05T00:00:00Z"));
  }

  @Test
  void advanceWritesADateAndNeverMovesBack() {
    SealedThroughUpdate first =
        SealedThrough.advance(fact, "s.fact", Instant.parse("2026-10-04T00:00:00Z"));
    SealedThroughUpdate back =
        SealedThrough.advance(fact, "s.fact", Instant.parse("2026-10-02T00:00:00Z"));

    assertThat(first)
        .isEqualTo(new SealedThroughUpdate(null, Instant.parse("2026-10-04T00:00:00Z")));
    assertThat(first.moved()).isTrue();
    assertThat(back.moved()).isFalse();
    assertThat(catalog.load("s.fact").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-04");
  }

  @Test
  void aStaleTableObjectDoesNotMoveTheMarkerBack() {
    Table stale = catalog.load("s.fact");
    SealedThrough.advance(fact, "s.fact", Instant.parse("2026-10-06T00:00:00Z"));

    SealedThroughUpdate update =
        SealedThrough.advance(stale, "s.fact", Instant.parse("2026-10-04T00:00:00Z"));

    assertThat(update.after()).isEqualTo(Instant.parse("2026-10-06T00:00:00Z"));
    assertThat(catalog.load("s.fact").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-06");
  }

  @Test
  void aRacingApplyOnACatalogThatAssertsNoPropertyDoesNotMoveTheMarkerBack() {
    racingApplyOnACatalogThatAssertsNoProperty();
  }

  @Test
  void aRacingApplyIsFoundAlsoWhenTheMetadataLogKeepsOneVersion() {
    fact.updateProperties().set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "1").commit();
    racingApplyOnACatalogThatAssertsNoProperty();
  }

  private void racingApplyOnACatalogThatAssertsNoProperty() {
    Table rest =
        InterceptedTable.beforeEachCommit(
            InterceptedTable.restCommits(fact),
            attempt -> {
              if (attempt == 0) {
                SealedThrough.advance(
                    catalog.load("s.fact"), "s.fact", Instant.parse("2026-10-06T00:00:00Z"));
              }
            });

    SealedThroughUpdate update =
        SealedThrough.advance(rest, "s.fact", Instant.parse("2026-10-04T00:00:00Z"));

    assertThat(update.after()).isEqualTo(Instant.parse("2026-10-06T00:00:00Z"));
    assertThat(catalog.load("s.fact").properties())
        .containsEntry(FloeTableProperties.SEALED_THROUGH, "2026-10-06");
  }

  @Test
  void anHourMarkerIsAnInstantAndAnUnreadableOneIsRefused() {
    assertThat(SealedThrough.format(Instant.parse("2026-10-05T06:00:00Z")))
        .isEqualTo("2026-10-05T06:00:00Z");
    assertThat(SealedThrough.format(Instant.parse("2026-10-05T00:00:00Z"))).isEqualTo("2026-10-05");
    fact.updateProperties().set(FloeTableProperties.SEALED_THROUGH, "last tuesday").commit();

    assertThatThrownBy(() -> plan("2026-10-20"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot parse table property floe.sealed-through of s.fact 'last tuesday'");
  }

  private LatePlan plan(String asOf) {
    return LatePlanner.of(catalog.catalog(), "s.fact", "d")
        .job("fact_daily")
        .asOf(AsOf.parse("--as-of", asOf))
        .plan();
  }
}
