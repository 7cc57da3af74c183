package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadCheckTest {

  @Test
  void aNewSnapshotHoldingExactlyTheSliceRowsPasses() {
    assertThatCode(
            () ->
                LoadCheck.verify(
                    "raw", 2L, 1L, Map.of("added-records", "1000", "total-records", "1000"), 1000))
        .doesNotThrowAnyException();
  }

  @Test
  void aLimitThatWroteTooFewRowsFailsItsVerification() {
    assertThatThrownBy(
            () ->
                LoadCheck.verify(
                    "raw", 2L, 1L, Map.of("added-records", "999", "total-records", "999"), 1000))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Wrong result of raw: added-records 999, expected 1000");
  }

  @Test
  void anOverwriteThatLeftOldRowsBehindFails() {
    assertThatThrownBy(
            () ->
                LoadCheck.verify(
                    "raw", 2L, 1L, Map.of("added-records", "1000", "total-records", "2000"), 1000))
        .hasMessageContaining("total-records 2000, expected 1000");
  }

  @Test
  void aRunThatCommittedNothingFails() {
    Map<String, String> summary = Map.of("added-records", "1000", "total-records", "1000");

    assertThatThrownBy(() -> LoadCheck.verify("raw", 1L, 1L, summary, 1000))
        .hasMessageContaining("no new snapshot");
    assertThatThrownBy(() -> LoadCheck.verify("raw", null, null, Map.of(), 1000))
        .hasMessageContaining("no snapshot");
  }
}
