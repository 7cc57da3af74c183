package dev.floe.catalog.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AsOfTest {

  @Test
  void aDateMeansTheStartOfThatDayInUtc() {
    assertThat(AsOf.parse("--as-of", "2026-10-20"))
        .isEqualTo(Instant.parse("2026-10-20T00:00:00Z"));
  }

  @Test
  void anInstantKeepsItsOffset() {
    assertThat(AsOf.parse("--as-of", "2026-10-20T02:00:00Z"))
        .isEqualTo(Instant.parse("2026-10-20T02:00:00Z"));
    assertThat(AsOf.parse("--as-of", "2026-10-20T02:00:00+02:00"))
        .isEqualTo(Instant.parse("2026-10-20T00:00:00Z"));
  }

  @Test
  void aLocalDateTimeOrGarbageIsRefusedWithTheFormsThatWork() {
    assertThatThrownBy(() -> AsOf.parse("--as-of", "2026-10-20T02:00"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot parse --as-of '2026-10-20T02:00'")
        .hasMessageContaining("2026-10-20T02:00:00Z");
    assertThatThrownBy(() -> AsOf.parse("--as-of", "yesterday"))
        .hasMessageContaining("Cannot parse --as-of 'yesterday'");
  }
}
