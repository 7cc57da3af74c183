package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.StatementSetOperation;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the statements of a {@link SqlScript} in order on one table environment, as {@code floe sql}
 * does: get one with {@code FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(p),
 * catalog)}. The first failing statement stops the run; later statements are not run.
 *
 * <p>A statement Flink cannot parse, validate or plan fails with a one-line {@link
 * InvalidInputException}: {@code Cannot run SQL statement N (line L of <source>): <reason>}. A
 * statement that fails while its job runs fails with an {@link IllegalStateException} worded the
 * same way.
 */
public final class SqlRunner {

  // Flink's wrapper for "the job could not be submitted": the environment failed, not the SQL.
  private static final String SUBMISSION_FAILED = "Failed to execute sql";

  private final TableEnvironmentInternal tableEnv;

  /**
   * @param tableEnv a batch table environment; Flink's own implementations all qualify
   */
  public SqlRunner(TableEnvironment tableEnv) {
    if (!(tableEnv instanceof TableEnvironmentInternal internal)) {
      throw new IllegalArgumentException(
          "Cannot run SQL on " + tableEnv.getClass().getName() + ": not Flink's implementation");
    }
    this.tableEnv = internal;
  }

  /** Runs every statement and returns their results in order. */
  public List<StatementResult> run(SqlScript script) {
    List<StatementResult> results = new ArrayList<>();
    run(script, results::add);
    return results;
  }

  /**
   * Runs every statement, handing each result to {@code onResult} as soon as it is complete, so a
   * caller can show the results before a later statement fails.
   */
  public void run(SqlScript script, Consumer<? super StatementResult> onResult) {
    InvalidInputException.check(
        !script.statements().isEmpty(),
        "Cannot run SQL from %s: it holds no statements",
        script.source());
    for (SqlStatement statement : script.statements()) {
      onResult.accept(run(script.source(), statement));
    }
  }

  private StatementResult run(String source, SqlStatement statement) {
    Operation operation;
    TableResult result;
    try {
      // Parsing separately from executing (what executeSql does inside) tells a writing job,
      // whose result is a placeholder row count of -1, from a query.
      List<Operation> operations = tableEnv.getParser().parse(statement.text());
      if (operations.size() != 1) {
        throw new ValidationException(
            "expected one statement, found " + operations.size() + " (missing ';'?)");
      }
      operation = operations.get(0);
      result = tableEnv.executeInternal(operation);
    } catch (SqlParserException | ValidationException e) {
      throw SqlErrors.invalidStatement(source, statement, e);
    } catch (TableException e) {
      if (SUBMISSION_FAILED.equals(e.getMessage())) {
        throw SqlErrors.statementFailed(source, statement, e);
      }
      throw SqlErrors.invalidStatement(source, statement, e);
    } catch (RuntimeException e) {
      throw SqlErrors.statementFailed(source, statement, e);
    }

    if (operation instanceof ModifyOperation || operation instanceof StatementSetOperation) {
      awaitJob(source, statement, result);
      return new InsertResult(statement);
    }
    if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
      return collect(source, statement, result);
    }
    return new OkResult(statement);
  }

  private static void awaitJob(String source, SqlStatement statement, TableResult result) {
    try {
      result.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result.getJobClient().ifPresent(JobClient::cancel);
      throw SqlErrors.statementFailed(source, statement, e);
    } catch (ExecutionException | RuntimeException e) {
      throw SqlErrors.statementFailed(source, statement, e);
    }
  }

  private static QueryResult collect(String source, SqlStatement statement, TableResult result) {
    List<Column> columns = result.getResolvedSchema().getColumns();
    List<List<Object>> rows = new ArrayList<>();
    // Closing the iterator also cancels the job if reading stopped early.
    try (CloseableIterator<Row> iterator = result.collect()) {
      while (iterator.hasNext()) {
        Row row = iterator.next();
        List<Object> values = new ArrayList<>(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
          values.add(row.getField(i));
        }
        rows.add(values);
      }
    } catch (Exception e) {
      throw SqlErrors.statementFailed(source, statement, e);
    }
    return new QueryResult(
        statement,
        columns.stream().map(Column::getName).toList(),
        columns.stream().map(c -> c.getDataType().getLogicalType().asSummaryString()).toList(),
        rows);
  }
}
