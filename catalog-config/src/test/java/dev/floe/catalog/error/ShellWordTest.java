package dev.floe.catalog.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void aShellReadsEachWordBackAsTheValue(@TempDir Path dir) throws Exception {
    for (String value : NASTY) {
      if (!argumentsCanHold(value)) {
        continue; // a JVM without a UTF-8 locale passes no non-ASCII argument to a process
      }
      String word = ShellWord.of(value);

      assertThat(word).as(value).doesNotContain("\n");
      assertThat(shellPrints(dir, "printf %s " + word)).as(word).isEqualTo(value);
      // One argument, not split into several nor dropped.
      assertThat(shellPrints(dir, "set -- " + word + "; printf %s \"$#\"")).as(word).isEqualTo("1");
    }
    try (var made = Files.list(dir)) {
      assertThat(made.toList()).as("nothing ran: no file was made").isEmpty();
    }
  }

  @Test
  void aShellReadsASafeValueBackUnquoted(@TempDir Path dir) throws Exception {
    for (String value : List.of("sales.fact_orders", "a=b", "user@host:path,x+y%z", "-dash")) {
      assertThat(shellPrints(dir, "printf %s " + ShellWord.of(value))).isEqualTo(value);
    }
  }

  /** Whether this JVM passes {@code value} to a process intact. */
  private static boolean argumentsCanHold(String value) {
    return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"))
        .newEncoder()
        .canEncode(value);
  }

  /** What {@code /bin/sh -c script} prints to stdout, run in {@code dir}. */
  private static String shellPrints(Path dir, String script)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder("/bin/sh", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = process.getInputStream()) {
      in.transferTo(out);
    }
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(script).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }
}
