package dev.floe.flink.sql;

/** A statement without rows that succeeded: CREATE, DROP, ALTER, USE, SET. */
public record OkResult(SqlStatement statement) implements StatementResult {}
