package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.command.ClearOperation;
import org.apache.flink.table.operations.command.HelpOperation;
import org.apache.flink.table.operations.command.QuitOperation;
import org.apache.flink.table.operations.command.ResetOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.table.operations.command.ShowJobsOperation;
import org.apache.flink.table.operations.command.StopJobOperation;

/**
 * The commands Flink's parser accepts but only its SQL client carries out ({@code SET}, {@code
 * HELP}, {@code SHOW JOBS}, ...). A table environment refuses them with a list of every statement
 * type it knows, or as an internal error; {@code floe sql} refuses them in one line that says what
 * to use instead.
 */
final class ClientCommands {
  private ClientCommands() {}

  private static final Map<Class<? extends Operation>, String> KEYWORDS =
      Map.of(
          SetOperation.class, "SET",
          ResetOperation.class, "RESET",
          HelpOperation.class, "HELP",
          QuitOperation.class, "QUIT",
          ClearOperation.class, "CLEAR",
          ShowJobsOperation.class, "SHOW JOBS",
          StopJobOperation.class, "STOP JOB");

  /** Refuses {@code operation} (exit 2) when it is a command of Flink's SQL client. */
  static void refuse(String source, SqlStatement statement, Operation operation) {
    String keyword = KEYWORDS.get(operation.getClass());
    if (keyword == null) {
      return;
    }
    String instead =
        operation instanceof SetOperation || operation instanceof ResetOperation
            ? "give the parallelism with --parallelism and a table's read options in a"
                + " /*+ OPTIONS('key'='value') */ hint"
            : "it runs SQL statements only (floe sql --help)";
    throw new InvalidInputException(
        String.format(
            "Cannot run SQL statement %d (line %d of %s): %s is a command of Flink's SQL client,"
                + " not of floe sql; %s",
            statement.number(), statement.line(), source, keyword, instead));
  }
}
