package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** FLOE_DEBUG: what turns an unexpected failure's stack trace on. */
class FloeDebugSwitchTest {
  @Test
  void zeroFalseOffNoAndEmptyKeepStackTracesOffAnythingElseTurnsThemOn() {
    assertThat(FloeMain.debug(null)).isFalse();
    for (String off : new String[] {"", " ", "0", "false", "FALSE", "off", "No"}) {
      assertThat(FloeMain.debug(off)).as("FLOE_DEBUG='%s'", off).isFalse();
    }
    for (String on : new String[] {"1", "true", "yes", "on", "stack"}) {
      assertThat(FloeMain.debug(on)).as("FLOE_DEBUG='%s'", on).isTrue();
    }
  }
}
