package dev.floe.flink.sql;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The statements of a {@code floe sql} run, in order, and where they came from.
 *
 * @param source how error messages name the origin: {@code -f <file>} or {@code the command line}
 */
public record SqlScript(String source, List<SqlStatement> statements) {

  public static final String COMMAND_LINE = "the command line";

  public SqlScript {
    statements = List.copyOf(statements);
  }

  /** The statements of {@code floe sql "<sql>"}. */
  public static SqlScript fromCommandLine(String sql) {
    return parse(COMMAND_LINE, sql);
  }

  /**
   * The statements of {@code floe sql -f <file>}; the file is read as UTF-8, a byte-order mark at
   * its start skipped.
   */
  public static SqlScript fromFile(Path file) {
    if (Files.isDirectory(file)) {
      throw InvalidInputException.of("Cannot read SQL file %s: it is a folder, not a file", file);
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw InvalidInputException.of("Cannot read SQL file %s: no such file", file);
    } catch (CharacterCodingException e) {
      throw InvalidInputException.of(
          "Cannot read SQL file %s: it is not valid UTF-8; save it as UTF-8", file);
    } catch (IOException e) {
      throw new InvalidInputException("Cannot read SQL file " + file + ": " + e.getMessage(), e);
    }
    // Editors on Windows often start a UTF-8 file with a byte-order mark: not part of the SQL.
    return parse("-f " + file, text.startsWith("\uFEFF") ? text.substring(1) : text);
  }

  /** Splits {@code text} into statements; {@code source} is only used in messages. */
  public static SqlScript parse(String source, String text) {
    return new SqlScript(source, SqlStatementSplitter.split(source, text));
  }
}
