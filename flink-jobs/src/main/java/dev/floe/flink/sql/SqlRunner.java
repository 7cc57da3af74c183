package dev.floe.flink.sql;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Redaction;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ExactTypes;
import dev.floe.flink.job.FoldedText;
import dev.floe.flink.job.QueryInspector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.sql.parser.error.SqlValidateException;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.operations.CreateTableASOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.QueryOperation;
import org.apache.flink.table.operations.ReplaceTableAsOperation;
import org.apache.flink.table.operations.ShowCreateTableOperation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the statements of a {@link SqlScript} in order on one table environment, as {@code floe sql}
 * does: get one with {@code FlinkSessions.tableEnvironment(FlinkSessions.batchEnvironment(p, conf,
 * cluster), catalog)}, where {@code cluster} is the command's own ({@code LocalCluster.forCommand},
 * so that every statement's job runs on one cluster). The first failing statement stops the run;
 * later statements are not run.
 *
 * <p>A statement Flink cannot parse, validate or plan fails with a one-line {@link
 * InvalidInputException}: {@code Cannot run SQL statement N (line L of <source>): <reason>}, also
 * when the planner cannot fold one of its constants ({@code 1 / 0}) and when its job cannot compute
 * one of its values (a cast of {@code 'x'} to INT), as {@code floe run} reports such a query. A
 * statement whose job fails for another reason fails with an {@link IllegalStateException} worded
 * the same way. A {@code DELETE} or {@code UPDATE} the planner refuses because the table's sink
 * changes no single rows (every Iceberg table's) is invalid input too, and for an Iceberg table
 * {@code floe sql} starts no cluster. So is, before it runs, a statement that writes into an
 * Iceberg table with a property value Iceberg cannot parse, or gives a table one ({@link
 * PropertyChanges}).
 */
public final class SqlRunner {

  // How Iceberg's Flink connector shows a uuid column (fixed(16) looks the same).
  private static final LogicalType UUID_IN_FLINK = new BinaryType(16);

  // Flink's wrapper for "the job could not be submitted": the environment failed, not the SQL.
  private static final String SUBMISSION_FAILED = "Failed to execute sql";

  private final TableEnvironmentInternal tableEnv;
  private final TableSchemas schemas;
  private final Runnable beforeJob;

  /**
   * @param tableEnv a batch table environment on {@code catalog}; Flink's own implementations all
   *     qualify
   * @param catalog the Iceberg catalog the statements read and write: a statement touching a table
   *     with a column Flink cannot carry exactly is refused ({@link ExactTypes}), and its uuid
   *     columns print as uuids
   */
  public SqlRunner(TableEnvironment tableEnv, CatalogConfig catalog) {
    this(tableEnv, catalog, () -> {});
  }

  /**
   * @param tableEnv as above
   * @param catalog as above
   * @param beforeJob called once a statement that runs a Flink job (a query, an {@code INSERT}) is
   *     parsed and validated, before Flink plans it: {@code floe sql} starts its cluster there, so
   *     that the start overlaps with the planning. A statement refused by validation, one without a
   *     job (DDL, {@code SHOW}, {@code EXPLAIN}), and a {@code DELETE} or {@code UPDATE} of an
   *     Iceberg table, which the planner refuses, never call it
   */
  public SqlRunner(TableEnvironment tableEnv, CatalogConfig catalog, Runnable beforeJob) {
    this(tableEnv, TableSchemas.of(catalog), beforeJob);
  }

  SqlRunner(TableEnvironment tableEnv, TableSchemas schemas, Runnable beforeJob) {
    if (!(tableEnv instanceof TableEnvironmentInternal internal)) {
      throw new IllegalArgumentException(
          "Cannot run SQL on " + tableEnv.getClass().getName() + ": not Flink's implementation");
    }
    this.tableEnv = internal;
    this.schemas = schemas;
    this.beforeJob = beforeJob;
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
    NewTable created = new NewTable();
    try {
      return run(source, statement, created);
    } catch (RuntimeException e) {
      created.dropIfNeverWritten(e);
      throw e;
    }
  }

  /**
   * The table a CREATE TABLE ... AS (or a REPLACE TABLE ... AS of a table that does not exist)
   * creates before its job runs: Iceberg's Flink sink cannot stage it, so Flink creates the table,
   * then runs the query, and a job that fails (a value the checks refuse, a cancelled job) would
   * leave an empty table behind under the name the next attempt needs.
   */
  private final class NewTable {
    private ObjectIdentifier id;

    void dropIfNeverWritten(RuntimeException failure) {
      if (id == null || causedBy(failure, TableAlreadyExistException.class)) {
        return;
      }
      try {
        // Through the session's catalog, whose cache would otherwise still hold the table.
        if (schemas.neverWritten(id.asSummaryString())) {
          tableEnv.getCatalogManager().dropTable(id, true);
        }
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private StatementResult run(String source, SqlStatement statement, NewTable created) {
    Operation operation = null;
    IcebergTables tables = null;
    TableResult result;
    try {
      // Parsing separately from executing (what executeSql does inside) tells a writing job,
      // whose result is a placeholder row count of -1, from a query.
      RefusedStatements.refuseBeforeParsing(source, statement);
      List<Operation> operations = tableEnv.getParser().parse(statement.text());
      if (operations.size() != 1) {
        throw new ValidationException(
            "expected one statement, found " + operations.size() + " (missing ';'?)");
      }
      operation = operations.get(0);
      RefusedStatements.refuse(source, statement, operation, tableEnv.getCatalogManager(), schemas);
      PropertyChanges.require(source, statement, operation, tableEnv.getCatalogManager(), schemas);
      tables = IcebergTables.touchedBy(operation, schemas);
      tables.requireExact(statement, source);
      tables.requireDefaults(operation, statement, source);
      if (operation instanceof SinkModifyOperation insert) {
        LosslessInsert.require(source, statement, insert);
        tables.requireWritable(insert, statement, source);
      } else if (operation instanceof CreateTableASOperation create) {
        LosslessInsert.require(source, statement, create, tableEnv.getCatalogManager());
        tables.requireWritable(create, tableEnv.getCatalogManager(), statement, source);
      } else if (operation instanceof ReplaceTableAsOperation replace) {
        LosslessInsert.require(source, statement, replace);
      }
      FloatConstants.requireExact(source, statement, operation);
      requireExactText(source, statement, operation);
      if (runsAJob(operation) && !tables.refusedWhilePlanned(operation)) {
        beforeJob.run();
      }
      created.id = tableCreatedBy(operation);
      result = tableEnv.executeInternal(operation);
    } catch (InvalidInputException e) {
      throw e;
    } catch (SqlParserException | ValidationException e) {
      throw SqlErrors.invalidStatement(source, statement, e);
    } catch (TableException e) {
      if (SUBMISSION_FAILED.equals(e.getMessage())) {
        throw SqlErrors.failed(source, statement, e);
      }
      throw SqlErrors.invalidStatement(source, statement, e);
    } catch (UnsupportedOperationException e) {
      if (IcebergTables.isRowLevelChange(operation) && refusedByItsSink(e)) {
        throw SqlErrors.rowLevelChangeRefused(
            source,
            statement,
            e,
            tables != null && tables.refusedWhilePlanned(operation),
            ((SinkModifyOperation) operation).isDelete());
      }
      throw SqlErrors.failed(source, statement, e);
    } catch (NumberFormatException e) {
      if (SqlErrors.isNonFiniteConstant(e)) {
        throw SqlErrors.nonFiniteConstant(source, statement, e);
      }
      throw SqlErrors.failed(source, statement, e);
    } catch (RuntimeException e) {
      throw SqlErrors.failed(source, statement, e);
    } catch (Exception e) {
      // Flink's Scala validator throws its checked SqlValidateException undeclared
      // ("Flink doesn't support ENFORCED mode for PRIMARY KEY constraint").
      if (e instanceof SqlValidateException) {
        throw SqlErrors.invalidStatement(source, statement, e);
      }
      throw SqlErrors.failed(source, statement, e);
    }

    if (writes(operation)) {
      awaitJob(source, statement, result);
      return new InsertResult(statement);
    }
    if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
      return collect(source, statement, operation, result, tables);
    }
    return new OkResult(statement);
  }

  /**
   * Refuses a statement whose query holds a text constant the planner decoded lossily ({@link
   * FoldedText}): written or shown, its bytes would be changed silently.
   */
  private void requireExactText(String source, SqlStatement statement, Operation operation) {
    QueryOperation query = FloatConstants.queryOf(operation);
    if (query == null) {
      return;
    }
    Optional<String> lossy =
        FoldedText.lossyConstant(
            statement.text(),
            QueryInspector.inspect(query).plan(),
            () -> tableEnv.explainInternal(List.<Operation>of(query)));
    if (lossy.isPresent()) {
      throw new InvalidInputException(
          SqlErrors.prefix(source, statement) + FoldedText.reason(lossy.get()));
    }
  }

  /**
   * Whether {@code e} is the planner's refusal of a row-level {@code DELETE} or {@code UPDATE}
   * because the table's sink cannot change single rows. Any other {@code
   * UnsupportedOperationException} of the planner is Flink's own failure, not the statement's.
   */
  static boolean refusedByItsSink(UnsupportedOperationException e) {
    StackTraceElement[] frames = e.getStackTrace();
    return frames.length > 0
        && frames[0].getClassName().equals(SINK_CONVERSION)
        && (frames[0].getMethodName().equals("convertDelete")
            || frames[0].getMethodName().equals("convertUpdate"));
  }

  private static final String SINK_CONVERSION =
      "org.apache.flink.table.planner.connectors.DynamicSinkUtils";

  /** The table {@code operation} creates before its job, if it is such a statement; else null. */
  private ObjectIdentifier tableCreatedBy(Operation operation) {
    ObjectIdentifier id =
        operation instanceof CreateTableASOperation create
            ? create.getCreateTableOperation().getTableIdentifier()
            : operation instanceof ReplaceTableAsOperation replace
                ? replace.getCreateTableOperation().getTableIdentifier()
                : null;
    return id == null || tableEnv.getCatalogManager().getTable(id).isPresent() ? null : id;
  }

  private static boolean runsAJob(Operation operation) {
    return operation instanceof QueryOperation || writes(operation);
  }

  private static boolean writes(Operation operation) {
    // A statement set never gets here: RefusedStatements refuses it.
    return operation instanceof ModifyOperation;
  }

  private static void awaitJob(String source, SqlStatement statement, TableResult result) {
    try {
      result.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      result.getJobClient().ifPresent(JobClient::cancel);
      throw SqlErrors.failed(source, statement, e);
    } catch (ExecutionException | RuntimeException e) {
      throw SqlErrors.failed(source, statement, e);
    }
  }

  /** The value of the {@code 'src-catalog'} option in a SHOW CREATE TABLE, up to its quote. */
  private static final Pattern SOURCE_CATALOG =
      Pattern.compile("(?m)('src-catalog'\\s*=\\s*')[^\\n]*(?=')");

  private static QueryResult collect(
      String source,
      SqlStatement statement,
      Operation operation,
      TableResult result,
      IcebergTables tables) {
    List<Column> columns = result.getResolvedSchema().getColumns();
    boolean[] uuid = UuidColumns.of(operation, columns.size(), tables);
    for (int i = 0; i < uuid.length; i++) {
      uuid[i] &= columns.get(i).getDataType().getLogicalType().copy(true).equals(UUID_IN_FLINK);
    }
    // Iceberg's Flink catalog writes the catalog's options, secrets among them, into a table's
    // SHOW CREATE TABLE ('src-catalog'): that option is masked whole (a secret may be numeric or
    // short, or under any key), and the rest as in every other output.
    boolean redact = operation instanceof ShowCreateTableOperation;
    List<List<Object>> rows = new ArrayList<>();
    // Closing the iterator also cancels the job if reading stopped early.
    try (CloseableIterator<Row> iterator = result.collect()) {
      while (iterator.hasNext()) {
        Row row = iterator.next();
        List<Object> values = new ArrayList<>(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
          Object value = row.getField(i);
          if (redact && value instanceof String text) {
            value =
                Redaction.redact(SOURCE_CATALOG.matcher(text).replaceAll("$1" + Redaction.MASK));
          }
          values.add(uuid[i] && value != null ? IcebergTables.uuid((byte[]) value) : value);
        }
        rows.add(values);
      }
    } catch (Exception e) {
      throw SqlErrors.failed(source, statement, e);
    }
    return new QueryResult(
        statement,
        columns.stream().map(Column::getName).toList(),
        IntStream.range(0, columns.size())
            .mapToObj(
                i ->
                    uuid[i]
                        ? "UUID"
                        : columns.get(i).getDataType().getLogicalType().asSummaryString())
            .toList(),
        rows);
  }
}
