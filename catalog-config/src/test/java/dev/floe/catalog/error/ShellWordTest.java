package dev.floe.catalog.error;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.PastedCommand;
import java.nio.charset.Charset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordTest {

  /** Values that break a pasted command, or do something else, when spliced in unquoted. */
  static final List<String> NASTY =
      List.of(
          "",
          " ",
          "sales.order items",
          "q4 close",
          "my jobs/orders.yaml",
          "it's",
          "'",
          "''",
          "'\\''",
          "\"double\"",
          "$HOME",
          "${PATH}",
          "$(touch pwned)",
          "`touch pwned`",
          "a;touch pwned",
          "a&&touch pwned",
          "a|cat",
          "a>pwned",
          "<in",
          "(sub)",
          "{a,b}",
          "*",
          "jobs/*.yaml",
          "?",
          "[ab]",
          "#comment",
          "~",
          "~root/x",
          "!!",
          "a\\b",
          "=ls",
          "^caret",
          "naïve menu",
          "日本 表",
          "-dash",
          "   lead and trail   ");

  @Test
  void aValueOfSafeCharactersIsReturnedUnchanged() {
    for (String value :
        List.of(
            "sales.fact_orders",
            "q4-close",
            "jobs/orders.yaml",
            "2026-10-03",
            "3f4794b4-c358-4b6d-a8c6-58279bfe366e",
            "a=b",
            "user@host:path,x+y%z",
            "café",
            "日本",
            "-dash")) {
      assertThat(ShellWord.of(value)).as(value).isEqualTo(value);
    }
  }

  @Test
  void anyOtherValueIsSingleQuotedWithEachQuoteWrittenAsQuoteBackslashQuoteQuote() {
    assertThat(ShellWord.of("")).isEqualTo("''");
    assertThat(ShellWord.of("q4 close")).isEqualTo("'q4 close'");
    assertThat(ShellWord.of("my jobs/orders.yaml")).isEqualTo("'my jobs/orders.yaml'");
    assertThat(ShellWord.of("it's")).isEqualTo("'it'\\''s'");
    assertThat(ShellWord.of("$(rm -rf ~)")).isEqualTo("'$(rm -rf ~)'");
    assertThat(ShellWord.of("=ls")).isEqualTo("'=ls'");
    assertThat(ShellWord.of("~")).isEqualTo("'~'");
    assertThat(ShellWord.of(null)).isEqualTo("null");
  }

  @Test
  void aControlCharacterIsEscapedSoTheCommandStaysOneLine() {
    String word = ShellWord.of("a\nb\r\u001b[31m\u2028c");

    assertThat(word).isEqualTo("'a\\nb\\r\\u001b[31m\\u2028c'").doesNotContain("\n", "\r");
  }

  @Test
  void aLongValueIsNeverCut() {
    String value = "x ".repeat(Shown.MAX_CHARS);

    assertThat(ShellWord.of(value)).isEqualTo("'" + value + "'");
  }

  @Test
  void aShellReadsEachWordBackAsTheValueAndRunsNothing() {
    for (String value : NASTY) {
      if (!argumentsCanHold(value)) {
        continue; // a JVM without a UTF-8 locale passes no non-ASCII argument to a process
      }
      String word = ShellWord.of(value);

      assertThat(word).as(value).doesNotContain("\n");
      // PastedCommand fails when the shell made a file: nothing ran.
      assertThat(PastedCommand.output("printf %s " + word)).as(word).isEqualTo(value);
      // One argument, not split into several nor dropped.
      assertThat(PastedCommand.output("set -- " + word + "; printf %s \"$#\""))
          .as(word)
          .isEqualTo("1");
    }
  }

  @Test
  void aShellReadsASafeValueBackUnquoted() {
    for (String value : List.of("sales.fact_orders", "a=b", "user@host:path,x+y%z", "-dash")) {
      assertThat(PastedCommand.output("printf %s " + ShellWord.of(value))).isEqualTo(value);
    }
  }

  /** Whether this JVM passes {@code value} to a process intact. */
  private static boolean argumentsCanHold(String value) {
    return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"))
        .newEncoder()
        .canEncode(value);
  }
}
