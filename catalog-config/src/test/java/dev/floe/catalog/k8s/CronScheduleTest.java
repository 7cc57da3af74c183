package dev.floe.catalog.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A CronJob schedule is checked field by field before it is rendered. */
class CronScheduleTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0 3 * * *",
        "*/15 * * * *",
        "0 0-23/2 1,15 JAN-jun mon-fri",
        "59 23 31 12 7",
        "@midnight",
        "@daily",
        " 0 3 * * * "
      })
  void acceptsWhatTheCronJobControllerAccepts(String schedule) {
    assertThat(CronSchedule.valid(schedule)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "99 99 99 99 99",
        "a b c d e",
        "0 3 * *",
        "0 3 * * * *",
        "60 * * * *",
        "* 24 * * *",
        "* * 0 * *",
        "* * * 13 *",
        "* * * * 8",
        "*/0 * * * *",
        "5-1 * * * *",
        "@sometimes",
        ""
      })
  void refusesSchedulesOutOfRangeOrMalformed(String schedule) {
    assertThat(CronSchedule.valid(schedule)).isFalse();
  }
}
