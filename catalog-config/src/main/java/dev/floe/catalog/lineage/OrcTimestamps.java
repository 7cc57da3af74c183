package dev.floe.catalog.lineage;

import dev.floe.catalog.error.CheckFailedException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;

/**
 * The one rule for the timestamps ORC cannot store (DESIGN rule 10: values are exact or refused).
 *
 * <p>ORC keeps a timestamp as seconds and nanoseconds, and its writer truncates the seconds toward
 * zero: a value in the second before 1970-01-01T00:00 (from -999 ms to -1 µs, ORC-645) is written
 * as second 0 plus its fraction and reads back one second later. Iceberg 1.11's ORC writers (Flink
 * rows and generic records alike) pass such values straight through. ORC never reads a value in
 * that second back, so rewriting ORC files into ORC is safe; a value that reaches an ORC writer
 * from elsewhere (a query, a Parquet file) is refused, with the file not written and nothing
 * committed.
 */
public final class OrcTimestamps {
  private static final long SECOND_MICROS = 1_000_000L;

  private OrcTimestamps() {}

  /** Whether new data files of {@code table} are written as ORC (its default file format). */
  public static boolean writesOrc(Table table) {
    return FileFormat.fromString(
            table
                .properties()
                .getOrDefault(
                    TableProperties.DEFAULT_FILE_FORMAT,
                    TableProperties.DEFAULT_FILE_FORMAT_DEFAULT))
        == FileFormat.ORC;
  }

  /**
   * Whether ORC stores the timestamp exactly: it lies outside the second before the epoch (the
   * whole open interval, though the writer gets -999,999..-999,001 µs right).
   *
   * @param epochMicros microseconds from 1970-01-01T00:00 (UTC for a timestamptz)
   */
  public static boolean storable(long epochMicros) {
    return epochMicros >= 0 || epochMicros <= -SECOND_MICROS;
  }

  /**
   * The refusal of a value that is not {@link #storable}: exit 3, naming the table, the column and
   * the value.
   *
   * @param table the table's name
   * @param column the column, {@code outer.inner} for a nested field
   * @param epochMicros the value
   * @param withZone whether the column is a timestamptz (the value is shown with {@code Z})
   */
  public static CheckFailedException refusal(
      String table, String column, long epochMicros, boolean withZone) {
    Instant instant =
        Instant.ofEpochSecond(
            Math.floorDiv(epochMicros, SECOND_MICROS),
            Math.floorMod(epochMicros, SECOND_MICROS) * 1_000L);
    String value =
        withZone ? instant.toString() : LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toString();
    return new CheckFailedException(
        String.format(
            "Cannot write %s into column %s of %s: ORC cannot store a timestamp in the second"
                + " before 1970-01-01T00:00 (it would read back one second later, ORC-645);"
                + " nothing was committed; write the table as parquet (table property"
                + " write.format.default) or change the value",
            value, column, table));
  }
}
