package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.operations.BeginStatementSetOperation;
import org.apache.flink.table.operations.CompileAndExecutePlanOperation;
import org.apache.flink.table.operations.CreateTableASOperation;
import org.apache.flink.table.operations.DescribeCatalogOperation;
import org.apache.flink.table.operations.EndStatementSetOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.ReplaceTableAsOperation;
import org.apache.flink.table.operations.ShowCreateCatalogOperation;
import org.apache.flink.table.operations.command.ClearOperation;
import org.apache.flink.table.operations.command.DescribeJobOperation;
import org.apache.flink.table.operations.command.ExecutePlanOperation;
import org.apache.flink.table.operations.command.HelpOperation;
import org.apache.flink.table.operations.command.QuitOperation;
import org.apache.flink.table.operations.command.RemoveJarOperation;
import org.apache.flink.table.operations.command.ResetOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.table.operations.command.ShowJobsOperation;
import org.apache.flink.table.operations.command.StopJobOperation;
import org.apache.flink.table.operations.ddl.AlterCatalogCommentOperation;
import org.apache.flink.table.operations.ddl.AlterCatalogOptionsOperation;
import org.apache.flink.table.operations.ddl.AlterCatalogResetOperation;
import org.apache.flink.table.operations.ddl.AlterTableRenameOperation;
import org.apache.flink.table.operations.ddl.AnalyzeTableOperation;
import org.apache.flink.table.operations.ddl.CompilePlanOperation;
import org.apache.flink.table.operations.ddl.CreateDatabaseOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.apache.iceberg.flink.FlinkCatalog;

/**
 * The statements Flink's parser accepts but {@code floe sql} does not run, each refused (exit 2) in
 * one line that says what to use instead:
 *
 * <ul>
 *   <li>the commands only Flink's SQL client carries out ({@code SET}, {@code HELP}, {@code SHOW
 *       JOBS}, ...), which a table environment refuses with a list of every statement type it
 *       knows, or as an internal error;
 *   <li>statement sets, which a table environment cannot take one statement at a time;
 *   <li>compiled plans, whose {@code INSERT} would skip the checks {@code floe sql} makes of the
 *       tables it writes (a time column Flink cannot carry exactly);
 *   <li>{@code ANALYZE TABLE}, which Iceberg's Flink catalog cannot store;
 *   <li>{@code REPLACE TABLE ... AS} of a table that exists (Flink cannot replace an Iceberg table
 *       atomically);
 *   <li>an Iceberg database or table named with a '.' ({@code CREATE TABLE sales.`a.b`}, or renamed
 *       to one), which Iceberg's Flink connector could then neither read nor write: it keeps a
 *       table's identifier as text and splits it at each '.' when it loads the table.
 * </ul>
 */
final class RefusedStatements {
  private RefusedStatements() {}

  private static final String CLIENT = "is a command of Flink's SQL client, not of floe sql";
  private static final String SQL_ONLY = CLIENT + ", which runs SQL statements only (--help)";
  private static final String SETTINGS =
      CLIENT
          + "; the parallelism is --parallelism, and a table's read or write options go in a /*+"
          + " OPTIONS('key'='value') */ hint";
  private static final String STATEMENT_SET =
      "is not run by floe sql, which runs no statement sets; give each INSERT as a statement of"
          + " its own";
  private static final String PLAN =
      "is not run by floe sql, which runs no compiled plans (a plan would skip its checks of the"
          + " tables' column types); give the INSERT itself";

  private static final String CATALOG =
      "is not run by floe sql: it opens its catalog from the home's floe.yaml (catalog:), where"
          + " its settings are read and changed; a catalog's options can hold secrets, which floe"
          + " never prints";

  private static final Map<Class<? extends Operation>, String> REFUSALS =
      Map.ofEntries(
          Map.entry(SetOperation.class, "SET " + SETTINGS),
          Map.entry(ResetOperation.class, "RESET " + SETTINGS),
          Map.entry(HelpOperation.class, "HELP " + SQL_ONLY),
          Map.entry(QuitOperation.class, "QUIT " + SQL_ONLY),
          Map.entry(ClearOperation.class, "CLEAR " + SQL_ONLY),
          Map.entry(ShowJobsOperation.class, "SHOW JOBS " + SQL_ONLY),
          Map.entry(StopJobOperation.class, "STOP JOB " + SQL_ONLY),
          Map.entry(DescribeJobOperation.class, "DESCRIBE JOB " + SQL_ONLY),
          Map.entry(RemoveJarOperation.class, "REMOVE JAR " + SQL_ONLY),
          Map.entry(BeginStatementSetOperation.class, "BEGIN STATEMENT SET " + STATEMENT_SET),
          Map.entry(EndStatementSetOperation.class, "END " + STATEMENT_SET),
          Map.entry(CompilePlanOperation.class, "COMPILE PLAN " + PLAN),
          Map.entry(CompileAndExecutePlanOperation.class, "COMPILE AND EXECUTE PLAN " + PLAN),
          Map.entry(ExecutePlanOperation.class, "EXECUTE PLAN " + PLAN),
          Map.entry(DescribeCatalogOperation.class, "DESCRIBE CATALOG " + CATALOG),
          Map.entry(ShowCreateCatalogOperation.class, "SHOW CREATE CATALOG " + CATALOG),
          Map.entry(AlterCatalogOptionsOperation.class, "ALTER CATALOG ... SET " + CATALOG),
          Map.entry(AlterCatalogResetOperation.class, "ALTER CATALOG ... RESET " + CATALOG),
          Map.entry(AlterCatalogCommentOperation.class, "ALTER CATALOG ... COMMENT " + CATALOG),
          Map.entry(
              AnalyzeTableOperation.class,
              "ANALYZE TABLE is not run by floe sql: Iceberg's Flink catalog keeps no table"
                  + " statistics, so its job would read the table and then fail"));

  // Split at its first ';', such a set never reaches the parser whole.
  private static final Pattern EXECUTE_STATEMENT_SET =
      Pattern.compile(
          "EXECUTE\\s+STATEMENT\\s+SET\\b.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** Refuses {@code statement} (exit 2) before it is parsed when it opens a statement set. */
  static void refuseBeforeParsing(String source, SqlStatement statement) {
    if (EXECUTE_STATEMENT_SET.matcher(statement.text()).matches()) {
      throw refusal(source, statement, "EXECUTE STATEMENT SET " + STATEMENT_SET);
    }
  }

  /**
   * Refuses {@code operation} (exit 2) when {@code floe sql} does not run its kind, when it names
   * an Iceberg table or database with a '.' ({@link #refuseADottedName}), or when it is a {@code
   * REPLACE TABLE ... AS} of a table that exists. Flink replaces a table atomically only through a
   * sink that stages it, and Iceberg's sink does not: Flink drops the table (an Iceberg table with
   * its files), creates the new one and only then runs the query, so a query that fails leaves the
   * table empty, and one that reads the table reads nothing, and exits 0.
   *
   * @param catalogs the session's catalogs, asked exactly what Flink asks before it drops the table
   * @param schemas tells the configured Iceberg catalog's tables from the session's others
   */
  static void refuse(
      String source,
      SqlStatement statement,
      Operation operation,
      CatalogManager catalogs,
      TableSchemas schemas) {
    String refusal = REFUSALS.get(operation.getClass());
    if (refusal != null) {
      throw refusal(source, statement, refusal);
    }
    refuseADottedName(source, statement, operation, catalogs, schemas);
    if (operation instanceof ReplaceTableAsOperation replace) {
      ObjectIdentifier id = replace.getCreateTableOperation().getTableIdentifier();
      if (catalogs.getTable(id).isPresent()) {
        throw refusal(
            source,
            statement,
            "REPLACE TABLE ... AS is not run by floe sql on a table that exists ("
                + id.getDatabaseName()
                + "."
                + id.getObjectName()
                + "): Flink drops the table (an Iceberg table with its files) before the query"
                + " runs, so a query that fails or reads the table leaves it empty; write the rows"
                + " to a new table with"
                + " CREATE TABLE ... AS and then drop the old one, or use floe run with mode:"
                + " swap");
      }
    }
  }

  /**
   * Refuses a table of an Iceberg catalog named with a '.', and a database so named unless the
   * catalog joins namespace levels with '.' ({@link TableSchemas#joinsNamespaceLevels}). Iceberg's
   * Flink connector keeps a table's identifier as text and splits it at each '.' when a job loads
   * the table, so {@code sales.`a.b`} is looked up as table {@code b} of namespace {@code sales.a},
   * and a database {@code `x.y`} as the namespace of two levels {@code x}, {@code y}: the same one
   * to a JDBC catalog, another one to a catalog that keeps levels apart (REST, Hadoop, Glue).
   */
  private static void refuseADottedName(
      String source,
      SqlStatement statement,
      Operation operation,
      CatalogManager catalogs,
      TableSchemas schemas) {
    if (operation instanceof CreateDatabaseOperation create
        && create.getDatabaseName().contains(".")
        && isIceberg(create.getCatalogName(), catalogs, schemas)
        && !schemas.joinsNamespaceLevels(create.getCatalogName())) {
      throw dottedName(source, statement, "database", create.getDatabaseName());
    }
    Optional<ObjectIdentifier> named = catalogTableNamed(operation);
    if (named.isEmpty() || !isIceberg(named.get().getCatalogName(), catalogs, schemas)) {
      return;
    }
    if (named.get().getDatabaseName().contains(".")
        && !schemas.joinsNamespaceLevels(named.get().getCatalogName())) {
      throw dottedName(source, statement, "database", named.get().getDatabaseName());
    }
    if (named.get().getObjectName().contains(".")) {
      throw dottedName(source, statement, "table", named.get().getObjectName());
    }
  }

  /** The configured catalog (wrapped when its sources are pinned) or one created in the session. */
  static boolean isIceberg(String catalog, CatalogManager catalogs, TableSchemas schemas) {
    return schemas.inCatalog(catalog + ".")
        || catalogs.getCatalog(catalog).orElse(null) instanceof FlinkCatalog;
  }

  private static InvalidInputException dottedName(
      String source, SqlStatement statement, String kind, String name) {
    return refusal(
        source,
        statement,
        "the "
            + kind
            + " name '"
            + name
            + "' has a '.', which Iceberg's Flink connector reads as a separator, so it could"
            + " neither read nor write the table; use a name without '.', e.g. '"
            + name.replace('.', '_')
            + "'");
  }

  /**
   * The name a statement gives a table of a catalog: created, created from a query, or renamed to.
   * A temporary table lives in the session only, so any name is read back as given.
   */
  private static Optional<ObjectIdentifier> catalogTableNamed(Operation operation) {
    CreateTableOperation create = tableCreatedBy(operation);
    if (create != null) {
      return create.isTemporary() ? Optional.empty() : Optional.of(create.getTableIdentifier());
    }
    if (operation instanceof AlterTableRenameOperation rename) {
      return Optional.of(rename.getNewTableIdentifier());
    }
    return Optional.empty();
  }

  /**
   * The table a {@code CREATE TABLE}, {@code CREATE TABLE ... AS} or {@code REPLACE TABLE ... AS}
   * creates; null for any other statement.
   */
  static CreateTableOperation tableCreatedBy(Operation operation) {
    return operation instanceof CreateTableOperation create
        ? create
        : operation instanceof CreateTableASOperation ctas
            ? ctas.getCreateTableOperation()
            : operation instanceof ReplaceTableAsOperation rtas
                ? rtas.getCreateTableOperation()
                : null;
  }

  private static InvalidInputException refusal(
      String source, SqlStatement statement, String refusal) {
    return new InvalidInputException(SqlErrors.prefix(source, statement) + refusal);
  }
}
