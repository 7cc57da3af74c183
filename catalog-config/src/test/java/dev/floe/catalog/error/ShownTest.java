package dev.floe.catalog.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShownTest {

  @Test
  void aShortValueIsShownAsItIs() {
    assertThat(Shown.value("2026-10-03")).isEqualTo("2026-10-03");
    assertThat(Shown.value(null)).isEqualTo("null");
  }

  @Test
  void lineBreaksAndControlCharactersAreEscapedSoTheMessageStaysOneLine() {
    assertThat(Shown.value("pro\nfloe: fake\r\tx\u001b[31m\u2028"))
        .isEqualTo("pro\\nfloe: fake\\r\\tx\\u001b[31m\\u2028")
        .doesNotContain("\n", "\r");
  }

  @Test
  void aLongValueIsCutWithItsLength() {
    String shown = Shown.value("x".repeat(2_000_000));

    assertThat(shown).isEqualTo("x".repeat(Shown.MAX_CHARS) + "… (2000000 characters)");
  }
}
