package dev.floe.catalog.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A derived backfill id is one per job, range, manifest and build, however the range is spelled.
 */
class BackfillIdTest {
  @Test
  void aRangeSpelledAnotherWayDerivesTheSameId() {
    // A resume written with 'T' found "0 already loaded by this backfill".
    String spaced = BackfillId.derive("j", "s.t", "2026-03-28 23:00:00", "2026-03-29", "m", "v");
    String hour = BackfillId.derive("j", "s.t", "2026-03-28T23", " 2026-03-29 ", "m", "v");

    assertThat(spaced).isEqualTo(hour).startsWith("j_2026-03-28T23_2026-03-29_");
    assertThat(BackfillId.derive("j", "s.t", "2026-03-28T22", "2026-03-29", "m", "v"))
        .isNotEqualTo(hour);
  }

  @Test
  void aJobNameWithAccentsKeepsItsLettersInTheReadablePart() {
    assertThat(BackfillId.derive("événements_daily", "s.t", "2026-01", "2026-02", "m", "v"))
        .startsWith("evenements_daily_2026-01_2026-02_");
  }
}
