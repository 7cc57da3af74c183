package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LinearFitTest {

  @Test
  void aLineThroughRowsAndBytesSplitsEachFilesOverheadFromItsRows() {
    LinearFit fit = LinearFit.of(new long[] {10, 20, 40}, new long[] {1_100, 1_200, 1_400});

    assertThat(fit.intercept()).isCloseTo(1_000, within(1e-6));
    assertThat(fit.slope()).isCloseTo(10, within(1e-6));
    assertThat(fit.at(30)).isEqualTo(1_300);
  }

  @Test
  void pointsThatCannotPlaceARisingLineGiveNone() {
    assertThat(LinearFit.of(new long[] {}, new long[] {})).isNull();
    assertThat(LinearFit.of(new long[] {5}, new long[] {500})).isNull();
    assertThat(LinearFit.of(new long[] {5, 5}, new long[] {500, 510})).isNull();
    // Near-equal row counts whose sizes' noise tips the line down: a falling line would take the
    // whole smallest file for overhead (10 files of 1 MB predicted as 1.1 MB).
    assertThat(
            LinearFit.of(new long[] {1000, 1001, 1000}, new long[] {1_000_300, 999_800, 1_000_200}))
        .isNull();
    // Or tips it up: 700,000 of each 1,000,000-byte file would be taken for overhead.
    assertThat(
            LinearFit.of(
                new long[] {1000, 1001, 1000, 1001},
                new long[] {1_000_000, 1_000_300, 1_000_000, 1_000_300}))
        .isNull();
  }

  @Test
  void theOverheadIsNeverAboveTheSmallestFile() {
    LinearFit fit = LinearFit.of(new long[] {1, 2, 100}, new long[] {900, 50, 1_000});

    assertThat(fit.intercept()).isBetween(0.0, 50.0);
  }
}
