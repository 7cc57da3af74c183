package dev.floe.flink.sql;

/**
 * One statement of a {@link SqlScript}.
 *
 * @param number 1-based position among the script's non-empty statements
 * @param line 1-based line of the script where the statement's first token is
 * @param text the statement without its terminating {@code ;} and without leading comments,
 *     newlines kept so that a {@code --} comment inside it ends where the user ended it
 */
public record SqlStatement(int number, int line, String text) {}
