package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The UTF-8 rule agrees with the JDK's strict decoder, the independent reference. */
class Utf8StringsTest {

  @Test
  void agreesWithTheJdksStrictDecoderOnEveryOneAndTwoByteSequenceAndOnRandomLongerOnes() {
    for (int a = 0; a < 256; a++) {
      check(new byte[] {(byte) a});
      for (int b = 0; b < 256; b++) {
        check(new byte[] {(byte) a, (byte) b});
      }
    }
    Random random = new Random(20261206);
    for (int i = 0; i < 300_000; i++) {
      byte[] bytes = new byte[3 + random.nextInt(i % 2 == 0 ? 6 : 40)];
      random.nextBytes(bytes);
      // Runs of ASCII around the rest, so the eight-byte steps meet every kind of sequence.
      for (int j = 0; j < bytes.length; j++) {
        if (random.nextInt(3) == 0) {
          bytes[j] &= 0x7F;
        }
      }
      // Mostly lead bytes followed by continuation bytes, where the edge cases are.
      for (int j = 1; j < bytes.length; j++) {
        if (bytes[j] < 0 && random.nextInt(4) > 0) {
          bytes[j] = (byte) (0x80 | (bytes[j] & 0x3F));
        }
      }
      check(bytes);
    }
  }

  @Test
  void refusesOverlongFormsSurrogatesAndCodePointsPastTheLastOne() {
    for (String hex :
        new String[] {"c080", "e08080", "eda080", "edbfbf", "f0808080", "f4908080", "f5808080"}) {
      byte[] bytes = HexFormat.of().parseHex(hex);
      assertThat(Utf8Strings.wellFormed(bytes, 0, bytes.length)).as(hex).isFalse();
    }
    for (String text : new String[] {"", "a", "\u00e9", "\uFFFD", "\uD83D\uDE00", "\uDBFF\uDFFF"}) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      assertThat(Utf8Strings.wellFormed(bytes, 0, bytes.length)).as(text).isTrue();
    }
  }

  @Test
  void readsOnlyTheGivenRange() {
    byte[] bytes = {(byte) 0xff, 'a', 'b', (byte) 0xc3};
    assertThat(Utf8Strings.wellFormed(bytes, 1, 2)).isTrue();
    assertThat(Utf8Strings.wellFormed(bytes, 1, 3)).isFalse();
  }

  private static void check(byte[] bytes) {
    assertThat(Utf8Strings.wellFormed(bytes, 0, bytes.length))
        .as(HexFormat.of().formatHex(bytes))
        .isEqualTo(jdkDecodes(bytes));
  }

  private static boolean jdkDecodes(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
