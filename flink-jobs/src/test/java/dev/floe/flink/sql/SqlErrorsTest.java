package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.junit.jupiter.api.Test;

class SqlErrorsTest {

  private static final SqlStatement STATEMENT =
      new SqlStatement(3, 7, "SELECT *\nFROM sales.nope\nWHERE x = 'nope'");

  private static String invalid(RuntimeException failure) {
    return SqlErrors.invalidStatement("-f seed.sql", STATEMENT, failure).getMessage();
  }

  @Test
  void keepsOnlyTheFirstLineOfFlinksMessage() {
    String message =
        invalid(
            new ValidationException(
                "Column types of query result and sink for 'floe.sales.t' do not match.\n"
                    + "Cause: Different number of columns.\n\nQuery schema: [...]"));

    assertThat(message)
        .isEqualTo(
            "Cannot run SQL statement 3 (line 7 of -f seed.sql): Column types of query result"
                + " and sink for 'floe.sales.t' do not match.");
  }

  @Test
  void replacesCouldNotExecuteWrappersByTheirCauseAndJoinsALineThatEndsInAColon() {
    TableException failure =
        new TableException(
            "Could not execute CreateTable in path `floe`.`sales`.`x`",
            new IllegalStateException(
                "Invalid schema for v2:\n- Invalid type for a: timestamp_ns is not supported"));

    assertThat(invalid(failure))
        .isEqualTo(
            "Cannot run SQL statement 3 (line 7 of -f seed.sql): Invalid schema for v2:"
                + " - Invalid type for a: timestamp_ns is not supported");
  }

  @Test
  void quotesTheTextAtCalcitesPositionWhenTheMessageDoesNotNameIt() {
    String message =
        invalid(
            new ValidationException(
                "SQL validation failed. From line 2, column 6 to line 2, column 15: Object"
                    + " 'sales' not found"));

    assertThat(message).endsWith("Object 'sales' not found (at 'sales.nope')");
  }

  @Test
  void doesNotRepeatTextTheMessageAlreadyQuotes() {
    String message =
        invalid(
            new ValidationException(
                "SQL validation failed. From line 3, column 7 to line 3, column 7: Column 'x' not"
                    + " found in any table"));

    assertThat(message).endsWith("Column 'x' not found in any table");
  }

  @Test
  void aFailureTheStatementDidNotRaiseIsReportedByItsRootCause() {
    RuntimeException failure =
        new RuntimeException(
            "Failed to fetch next result",
            new IllegalStateException(
                "Job execution failed.", new NumberFormatException("For input string: 'x'")));

    assertThat(SqlErrors.failed("the command line", STATEMENT, failure))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot run SQL statement 3 (line 7 of the command line): For input string: 'x'")
        .hasCause(failure);
  }

  @Test
  void aResultRowOverTheCollectSinksBatchIsBadInputNamingWhatToSelectNotASetFloeSqlRefuses() {
    RuntimeException failure =
        new RuntimeException(
            "Failed to fetch next result",
            new java.io.IOException(
                "Record size is too large for CollectSinkFunction. Record size is 20000028 bytes,"
                    + " but max bytes per batch is only 2097152 bytes. Please consider increasing"
                    + " max bytes per batch value by setting collect-sink.batch-size.max"));

    assertThat(SqlErrors.failed("the command line", STATEMENT, failure))
        .isExactlyInstanceOf(dev.floe.catalog.error.InvalidInputException.class)
        .hasMessage(
            "Cannot run SQL statement 3 (line 7 of the command line): a result row is 20000028"
                + " bytes, more than the 2097152 bytes floe sql shows in one row; select a part of"
                + " the long values (e.g. SUBSTRING(v, 1, 1000) or CHAR_LENGTH(v)) or fewer"
                + " columns");
  }
}
