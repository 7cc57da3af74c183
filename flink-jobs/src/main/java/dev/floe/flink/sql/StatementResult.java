package dev.floe.flink.sql;

/** What one statement of a {@code floe sql} run produced; render with {@link ResultTable}. */
public sealed interface StatementResult permits QueryResult, InsertResult, OkResult {

  /** The statement this is the result of. */
  SqlStatement statement();
}
