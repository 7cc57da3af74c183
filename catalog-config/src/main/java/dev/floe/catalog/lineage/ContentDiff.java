package dev.floe.catalog.lineage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Compares the rows matching a filter at two snapshots of one table: which rows only one side has
 * (with a few samples) and which columns hold different values. Rows are compared by the same
 * canonical 128-bit hash as {@link ContentHash}, as multisets; columns by an order-independent hash
 * of each column's values, so a column is named only when its values really differ, not when other
 * columns' differences reorder rows.
 *
 * <p>Reads each side twice (once to count, once for the samples) and keeps one entry per distinct
 * row hash in memory; meant for the slices a verify compares, after their content hashes already
 * differed.
 */
public final class ContentDiff {
  /** At most this many sample rows per side. */
  public static final int SAMPLES = 5;

  private record RowHash(long high, long low) {}

  private ContentDiff() {}

  /**
   * @param table the table, read with its current schema
   * @param left a snapshot id, or null for "no rows" (a table without snapshots)
   * @param right a snapshot id, or null for "no rows"
   * @param filter the rows to compare, e.g. a slice's filter
   */
  public static ContentDifference compare(Table table, Long left, Long right, Expression filter) {
    Schema schema = table.schema();
    RecordHasher hasher = new RecordHasher(schema);
    Map<RowHash, Long> balance = new HashMap<>();
    List<ContentHash> leftColumns = columnHashes(schema);
    List<ContentHash> rightColumns = columnHashes(schema);
    read(table, left, filter, hasher, balance, leftColumns, 1);
    read(table, right, filter, hasher, balance, rightColumns, -1);

    long onlyLeft = 0;
    long onlyRight = 0;
    for (long count : balance.values()) {
      if (count > 0) {
        onlyLeft += count;
      } else {
        onlyRight -= count;
      }
    }
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < schema.columns().size(); i++) {
      if (!leftColumns.get(i).equals(rightColumns.get(i))) {
        columns.add(schema.columns().get(i).name());
      }
    }
    return new ContentDifference(
        columns,
        onlyLeft,
        onlyRight,
        samples(table, left, filter, hasher, balance, 1),
        samples(table, right, filter, hasher, balance, -1));
  }

  private static List<ContentHash> columnHashes(Schema schema) {
    List<ContentHash> hashes = new ArrayList<>();
    schema.columns().forEach(c -> hashes.add(ContentHash.empty()));
    return hashes;
  }

  /** Adds each row's hash to {@code balance} with {@code sign}, and each value to its column. */
  private static void read(
      Table table,
      Long snapshotId,
      Expression filter,
      RecordHasher hasher,
      Map<RowHash, Long> balance,
      List<ContentHash> columns,
      int sign) {
    if (snapshotId == null) {
      return;
    }
    try (CloseableIterable<Record> records = scan(table, snapshotId, filter)) {
      for (Record record : records) {
        long[] hash = hasher.hash128(record);
        balance.merge(new RowHash(hash[0], hash[1]), (long) sign, Long::sum);
        for (int i = 0; i < columns.size(); i++) {
          hasher.addColumn(record, i, columns.get(i));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name() + " to compare it", e);
    }
  }

  /** Up to {@link #SAMPLES} rows of one side whose hash that side has more often. */
  private static List<Map<String, String>> samples(
      Table table,
      Long snapshotId,
      Expression filter,
      RecordHasher hasher,
      Map<RowHash, Long> balance,
      int sign) {
    if (snapshotId == null) {
      return List.of();
    }
    Map<RowHash, Long> wanted = new HashMap<>();
    balance.forEach(
        (hash, count) -> {
          if (Long.signum(count) == sign) {
            wanted.put(hash, Math.abs(count));
          }
        });
    if (wanted.isEmpty()) {
      return List.of();
    }
    List<Map<String, String>> samples = new ArrayList<>();
    try (CloseableIterable<Record> records = scan(table, snapshotId, filter)) {
      for (Record record : records) {
        long[] hash = hasher.hash128(record);
        RowHash key = new RowHash(hash[0], hash[1]);
        Long left = wanted.get(key);
        if (left != null && left > 0) {
          wanted.put(key, left - 1);
          samples.add(describe(table.schema(), record));
          if (samples.size() == SAMPLES) {
            break;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name() + " to compare it", e);
    }
    return Collections.unmodifiableList(samples);
  }

  private static CloseableIterable<Record> scan(Table table, long snapshotId, Expression filter) {
    return TableRows.read(table, snapshotId, filter);
  }

  /** Column to value as text, in schema order; binary values in hex. */
  private static Map<String, String> describe(Schema schema, Record record) {
    Map<String, String> row = new LinkedHashMap<>();
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i++) {
      row.put(columns.get(i).name(), text(record.get(i)));
    }
    return Collections.unmodifiableMap(row);
  }

  private static String text(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    return value.toString();
  }
}
