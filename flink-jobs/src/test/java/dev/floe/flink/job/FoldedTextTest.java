package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The statement's own text literals, which exempt a U+FFFD the plan holds. */
class FoldedTextTest {

  @Test
  void theLiteralsOfAStatementAreReadWithTheirEscapesDecodedAlsoWhenLong() {
    String longText = "a".repeat(200_000);
    String sql =
        "SELECT 'it''s', u&'ab\\FFFDc', U&'\\+01F600', U&'\\+110000', '"
            + longText
            + "' -- 'comment'";

    assertThat(FoldedText.literals(sql))
        .contains("it's", "ab\uFFFDc", "\uD83D\uDE00", "\\+110000", longText);
  }

  @Test
  void aFoldedUFffdIsExemptOnlyWhenItIsALiteralTheStatementWrites() {
    String plan = "LogicalProject(s=[_UTF-16LE'ab\uFFFDc'])";

    assertThat(FoldedText.lossyConstant("SELECT U&'ab\\FFFDc' AS s", plan, () -> "")).isEmpty();
    assertThat(
            FoldedText.lossyConstant("SELECT CAST(X'6162FF63' AS STRING) -- FFFD", plan, () -> ""))
        .contains("'ab\\uFFFDc'");
    assertThat(
            FoldedText.lossyConstant(
                "SELECT U&'\\FFFD', FROM_BASE64('YWL/Yw==')",
                "LogicalProject(m=[_UTF-16LE'\uFFFD'], s=[FROM_BASE64(_UTF-16LE'YWL/Yw==')])",
                () -> "Calc(select=['\uFFFD' AS m, 'ab\uFFFDc' AS s])"))
        .isEqualTo(Optional.of("'ab\\uFFFDc'"));
  }
}
