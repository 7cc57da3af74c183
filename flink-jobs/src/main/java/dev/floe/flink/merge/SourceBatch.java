package dev.floe.flink.merge;

import dev.floe.catalog.error.CheckFailedException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.row.RowDataHasher;
import dev.floe.flink.row.RowFormatter;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The source reduced to one row per key, as a merge needs it (DESIGN rule 6, the seed's "MERGE
 * command cannot affect row a second time"):
 *
 * <ul>
 *   <li>merge: the row with the greatest ordering value wins; two rows with the same key and the
 *       same ordering value are collapsed when identical and refused when not, naming the key;
 *   <li>insert-if-absent: duplicates are collapsed; the row with the smallest ordering value (the
 *       first version of an immutable event) is kept, ties broken by the row's hash, so the choice
 *       does not depend on the order rows arrive in.
 * </ul>
 *
 * Rows are held in memory, keyed by the 128-bit hash of their key: a merge batch is the changes,
 * not the table.
 */
final class SourceBatch {
  /**
   * A key's current winner; {@code rival} is another row with the same ordering value but other
   * content (merge only), judged when the batch is complete: a newer row arriving later settles the
   * tie, so the verdict does not depend on the order rows arrive in.
   */
  private record Entry(RowData row, long hashHigh, long hashLow, RowData rival) {}

  private final String target;
  private final boolean keepNewest;
  private final RowDataHasher keyHasher;
  private final RowDataHasher rowHasher;
  private final ColumnValues.Reader ordering;
  private final RowFormatter formatter;
  private final List<String> keyColumns;
  private final String orderingColumn;
  private final Map<KeyHash, Entry> winners = new HashMap<>();
  private long received;

  /**
   * @param target the target's name, for messages
   * @param rowType the source rows' type (the target's columns)
   * @param keyColumns the key
   * @param orderingColumn the ordering column, or null (insert-if-absent only)
   * @param keepNewest true for merge (greatest ordering wins), false for insert-if-absent
   */
  SourceBatch(
      String target,
      RowType rowType,
      List<String> keyColumns,
      String orderingColumn,
      boolean keepNewest) {
    this.target = target;
    this.keepNewest = keepNewest;
    this.keyHasher = new RowDataHasher(rowType, keyColumns);
    this.rowHasher = new RowDataHasher(rowType);
    this.ordering =
        orderingColumn == null
            ? null
            : ColumnValues.reader(
                rowType.getTypeAt(rowType.getFieldIndex(orderingColumn)),
                rowType.getFieldIndex(orderingColumn));
    this.formatter = new RowFormatter(rowType);
    this.keyColumns = List.copyOf(keyColumns);
    this.orderingColumn = orderingColumn;
  }

  /**
   * Adds a row the batch may keep; the caller hands over a row it will not reuse.
   *
   * @throws CheckFailedException when a row has no ordering value
   */
  void add(RowData row) {
    received++;
    if (ordering != null && ordering.read(row) == null) {
      throw new CheckFailedException(
          String.format(
              "Cannot %s %s: a source row has no %s, so it cannot be ordered: %s",
              keepNewest ? "merge into" : "insert into",
              target,
              orderingColumn,
              formatter.format(row)));
    }
    long[] key = keyHasher.hash128(row);
    long[] hash = rowHasher.hash128(row);
    KeyHash keyHash = new KeyHash(key[0], key[1]);
    Entry candidate = new Entry(row, hash[0], hash[1], null);
    Entry current = winners.get(keyHash);
    if (current == null) {
      winners.put(keyHash, candidate);
      return;
    }
    int byOrdering =
        ordering == null ? 0 : ColumnValues.compare(orderingOf(row), orderingOf(current.row()));
    if (byOrdering != 0) {
      if (keepNewest ? byOrdering > 0 : byOrdering < 0) {
        winners.put(keyHash, candidate);
      }
      return;
    }
    boolean identical =
        candidate.hashHigh() == current.hashHigh() && candidate.hashLow() == current.hashLow();
    if (identical) {
      return; // an exact duplicate: collapsed
    }
    if (keepNewest) {
      if (current.rival() == null) {
        winners.put(keyHash, new Entry(current.row(), current.hashHigh(), current.hashLow(), row));
      }
      return;
    }
    if (winsTie(candidate, current)) {
      winners.put(keyHash, candidate);
    }
  }

  /**
   * Refuses the batch when a key's newest ordering value belongs to two rows with different content
   * (the seed's "MERGE command cannot affect row a second time").
   *
   * @throws CheckFailedException naming the key and both rows
   */
  void requireUnambiguous() {
    for (Entry entry : winners.values()) {
      if (entry.rival() != null) {
        throw new CheckFailedException(
            String.format(
                "Cannot merge into %s: two source rows have key %s and the same %s but different"
                    + " content, so neither is newer: %s and %s; make the source deliver one row"
                    + " per key and %s (nothing was committed)",
                target,
                describeKey(entry.row()),
                orderingColumn,
                formatter.format(entry.row()),
                formatter.format(entry.rival()),
                orderingColumn));
      }
    }
  }

  private boolean winsTie(Entry candidate, Entry current) {
    // Insert-if-absent keeps one of two different versions; the smaller hash wins, so the choice
    // is the same whatever order the rows arrive in.
    int byHash = Long.compareUnsigned(candidate.hashHigh(), current.hashHigh());
    if (byHash == 0) {
      byHash = Long.compareUnsigned(candidate.hashLow(), current.hashLow());
    }
    return byHash < 0;
  }

  private Comparable<?> orderingOf(RowData row) {
    return ordering.read(row); // never null: add() refuses rows without one
  }

  private String describeKey(RowData row) {
    return formatter.columns(row, keyColumns);
  }

  /** The winning row for a key hash, or null. */
  RowData get(KeyHash key) {
    Entry entry = winners.get(key);
    return entry == null ? null : entry.row();
  }

  Map<KeyHash, RowData> rows() {
    Map<KeyHash, RowData> rows = new HashMap<>(winners.size() * 2);
    winners.forEach((key, entry) -> rows.put(key, entry.row()));
    return rows;
  }

  Collection<RowData> winners() {
    return winners.values().stream().map(Entry::row).toList();
  }

  int size() {
    return winners.size();
  }

  /** Source rows received, including the ones collapsed. */
  long received() {
    return received;
  }

  /** The content hash of the reduced batch (what lineage records for a keyed commit). */
  ContentHash contentHash() {
    ContentHash hash = ContentHash.empty();
    winners.values().forEach(entry -> rowHasher.add(entry.row(), hash));
    return hash;
  }
}
