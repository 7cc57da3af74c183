package dev.floe.flink.sql;

/**
 * A finished INSERT (or other statement that ran a writing job). It carries no row count: Flink 2.1
 * reports -1 ("unknown") for every sink, Iceberg's included.
 */
public record InsertResult(SqlStatement statement) implements StatementResult {}
