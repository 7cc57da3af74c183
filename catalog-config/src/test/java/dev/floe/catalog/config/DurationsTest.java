package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every duration flag and key reads the same forms: --timeout, --orphan-min-age, --retain, ... */
class DurationsTest {
  @Test
  void readsIsoAndOneNumberWithAUnit() {
    assertThat(Durations.parse("P3D")).isEqualTo(Duration.ofDays(3));
    assertThat(Durations.parse("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("48h")).isEqualTo(Duration.ofHours(48));
    assertThat(Durations.parse(" 30 S ")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("2d")).isEqualTo(Duration.ofDays(2));
  }

  @Test
  void anythingElseSaysTheForms() {
    for (String text : new String[] {"abc", "", "3 days", "1.5h", "99999999999999d"}) {
      assertThatThrownBy(() -> Durations.parse(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("expected a duration, " + Durations.FORMS);
    }
  }
}
