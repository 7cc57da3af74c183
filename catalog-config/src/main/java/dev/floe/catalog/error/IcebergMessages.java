package dev.floe.catalog.error;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Iceberg's validation messages as one short line: they end with every file they concern ({@code
 * Found conflicting files ...: [file:/a.parquet, file:/b.parquet]}, {@code Missing required files
 * to delete: file:/a.parquet,file:/b.parquet}), a list that grows with the table; here it is
 * counted instead.
 */
public final class IcebergMessages {
  private static final Pattern BRACKETED = Pattern.compile("\\[([^\\[\\]]*/[^\\[\\]]*)\\]$");
  private static final Pattern LISTED =
      Pattern.compile("^(Missing required files to delete): (.+)$");

  private IcebergMessages() {}

  /** {@code message} with the file list at its end replaced by how many files it named. */
  public static String withoutFileLists(String message) {
    if (message == null) {
      return null;
    }
    Matcher bracketed = BRACKETED.matcher(message);
    if (bracketed.find()) {
      return message.substring(0, bracketed.start())
          + files(bracketed.group(1).split(",\\s*").length);
    }
    Matcher listed = LISTED.matcher(message);
    if (listed.matches()) {
      return listed.group(1) + ": " + files(listed.group(2).split(",").length);
    }
    return message;
  }

  private static String files(int count) {
    return count == 1 ? "1 file" : count + " files";
  }
}
