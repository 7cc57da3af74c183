package dev.floe.catalog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeoutTest {

  @Test
  void readsIso8601AndOneNumberWithAUnit() {
    assertThat(Timeout.parseDuration("PT30M")).isEqualTo(Duration.ofMinutes(30));
    assertThat(Timeout.parseDuration("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Timeout.parseDuration("P1D")).isEqualTo(Duration.ofDays(1));
    assertThat(Timeout.parseDuration("PT0.5S")).isEqualTo(Duration.ofMillis(500));
    assertThat(Timeout.parseDuration("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Timeout.parseDuration("30m")).isEqualTo(Duration.ofMinutes(30));
    assertThat(Timeout.parseDuration("2H")).isEqualTo(Duration.ofHours(2));
    assertThat(Timeout.parseDuration("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(Timeout.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void refusesWhatIsNotAPositiveDurationOfAtMostAYear() {
    assertThatThrownBy(() -> Timeout.parseDuration("soon"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("expected a duration, ISO-8601 such as PT30M");
    assertThatThrownBy(() -> Timeout.parseDuration("30")).hasMessageStartingWith("expected");
    assertThatThrownBy(() -> Timeout.parseDuration("-5m")).hasMessageStartingWith("a timeout must");
    assertThatThrownBy(() -> Timeout.parseDuration("-PT5M"))
        .hasMessageStartingWith("a timeout must be positive");
    assertThatThrownBy(() -> Timeout.parseDuration("PT0S"))
        .hasMessageStartingWith("a timeout must be positive");
    assertThatThrownBy(() -> Timeout.parseDuration("400d")).hasMessageContaining("at most 365");
    assertThatThrownBy(() -> Timeout.parseDuration("PT0.0005S"))
        .hasMessageStartingWith("a timeout is whole milliseconds");
    assertThatThrownBy(() -> Timeout.parseDuration("PT1.0000001S"))
        .hasMessageStartingWith("a timeout is whole milliseconds");
    assertThat(Timeout.parseDuration("PT0.5S")).isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> Timeout.parseDuration("PT9999999999999999H"))
        .hasMessageStartingWith("expected a duration");
  }

  @Test
  void aBadFlagValueIsExit2NamingTheFlagAndTheValue() {
    assertThatThrownBy(() -> Timeout.ofFlag("--timeout", "-5m"))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> assertThat(((InvalidInputException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            "Cannot use --timeout '-5m': a timeout must be positive, ISO-8601 such as PT30M or"
                + " PT2H, or 90s, 30m, 2h, 1d");
    assertThat(Timeout.ofFlag("--timeout", " 30m ").describe()).isEqualTo("30m (--timeout)");
    assertThat(ExitCodes.TIMED_OUT).isEqualTo(6);
  }
}
