package dev.floe.flink.commit;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.DataFileReaders;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.check.Violations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Confirms the duplicate finders' candidate hashes against the keys themselves and turns them into
 * keys a person can read ({@code order_id=1}), by reading the key columns of the files this run
 * wrote. A 64-bit hash shared by two different keys is not a duplicate: only a key that occurs
 * twice is counted, so the count is exact. Only a run whose finders reported a candidate pays for
 * it; the writers ship nothing but hashes. Candidates are confirmed in batches of bounded memory
 * (one read of the key columns per batch); the samples are the smallest duplicated keys, the same
 * whatever the parallelism.
 */
final class DuplicateKeySamples {
  /** Candidate hashes confirmed per read of the key columns. */
  static final int HASHES_PER_PASS = 1 << 18;

  private DuplicateKeySamples() {}

  static CheckStats describe(
      Table table, List<DataFile> files, List<CheckSpec> checks, DuplicateKeys duplicates) {
    return describe(table, files, checks, duplicates, HASHES_PER_PASS);
  }

  /** As above, confirming at most {@code hashesPerPass} candidates per read of the files. */
  static CheckStats describe(
      Table table,
      List<DataFile> files,
      List<CheckSpec> checks,
      DuplicateKeys duplicates,
      int hashesPerPass) {
    CheckStats described = new CheckStats();
    for (int index : duplicates.checks()) {
      List<String> columns = checks.get(index).columns();
      long[] candidates = duplicates.sorted(index);
      Confirmed confirmed = new Confirmed();
      for (int from = 0; from < candidates.length; from += hashesPerPass) {
        long[] pass =
            Arrays.copyOfRange(candidates, from, Math.min(candidates.length, from + hashesPerPass));
        confirm(table, files, columns, pass, confirmed);
      }
      Violations violations = described.of(index);
      for (List<Object> key : confirmed.smallest) {
        violations.add(display(columns, key));
      }
      violations.addUnsampled(confirmed.count - confirmed.smallest.size());
    }
    return described;
  }

  /**
   * Reads the key columns of {@code files}, counts each real key whose hash is in {@code sorted},
   * and adds every key seen more than once to {@code confirmed}.
   */
  private static void confirm(
      Table table, List<DataFile> files, List<String> columns, long[] sorted, Confirmed confirmed) {
    // The key columns in the check's order: the order the writers hashed them in.
    Schema keySchema = new Schema(columns.stream().map(c -> table.schema().findField(c)).toList());
    RecordHasher hasher = new RecordHasher(keySchema);
    // Keys are told apart by their canonical bytes, the hash's own input: Java's equals would call
    // two equal fixed values (byte arrays, also inside a struct or list) different keys.
    List<Map<ByteBuffer, SeenKey>> keysByHash = new ArrayList<>(sorted.length);
    for (int i = 0; i < sorted.length; i++) {
      keysByHash.add(null);
    }
    for (DataFile file : files) {
      try (CloseableIterable<Record> records =
          DataFileReaders.readBuilder(table, file).project(keySchema).build()) {
        for (Record record : records) {
          List<Object> key = key(record, columns.size());
          if (key == null) {
            continue; // NULL keys are not duplicates (the writers skip them too)
          }
          int at = find(sorted, hasher.hash64(record));
          if (at >= 0) {
            Map<ByteBuffer, SeenKey> keys = keysByHash.get(at);
            if (keys == null) {
              keys = new LinkedHashMap<>(2);
              keysByHash.set(at, keys);
            }
            keys.computeIfAbsent(
                    ByteBuffer.wrap(hasher.canonicalBytes(record)), b -> new SeenKey(key))
                .count++;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file.location() + " for sample keys", e);
      }
    }
    for (Map<ByteBuffer, SeenKey> keys : keysByHash) {
      if (keys != null) {
        for (SeenKey seen : keys.values()) {
          if (seen.count > 1) {
            confirmed.add(seen.key);
          }
        }
      }
    }
  }

  /** A key read back: its values (for the report) and how often it occurs. */
  private static final class SeenKey {
    private final List<Object> key;
    private int count;

    SeenKey(List<Object> key) {
      this.key = key;
    }
  }

  /**
   * The confirmed duplicates of one check: how many, and the smallest few keys (column by column)
   * as samples, so that the report is the same whatever the parallelism or the hashes.
   */
  private static final class Confirmed {
    private static final Comparator<List<Object>> ORDER = Confirmed::compare;

    private long count;
    private final List<List<Object>> smallest = new ArrayList<>();

    void add(List<Object> key) {
      count++;
      smallest.add(key);
      smallest.sort(ORDER);
      if (smallest.size() > Violations.MAX_SAMPLES) {
        smallest.remove(smallest.size() - 1);
      }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(List<Object> a, List<Object> b) {
      for (int i = 0; i < a.size(); i++) {
        Object x = a.get(i);
        Object y = b.get(i);
        int c =
            x instanceof Comparable cx && x.getClass() == y.getClass()
                ? cx.compareTo(y)
                : String.valueOf(x).compareTo(String.valueOf(y));
        if (c != 0) {
          return c;
        }
      }
      return 0;
    }
  }

  /** The key's values (byte buffers copied), or null when one of them is NULL. */
  private static List<Object> key(Record record, int size) {
    Object[] values = new Object[size];
    for (int i = 0; i < size; i++) {
      Object value = record.get(i);
      if (value == null) {
        return null;
      }
      if (value instanceof byte[] fixed) {
        value = ByteBuffer.wrap(fixed.clone()); // a fixed: compared and shown by its bytes
      } else if (value instanceof ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        value = ByteBuffer.wrap(bytes);
      }
      values[i] = value;
    }
    return Arrays.asList(values);
  }

  /** The position of a hash in hashes sorted as unsigned numbers, or -1. */
  private static int find(long[] sorted, long hash) {
    int lo = 0;
    int hi = sorted.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(sorted[mid], hash);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  private static String hex(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static String display(List<String> columns, List<Object> key) {
    StringJoiner joiner = new StringJoiner(", ");
    for (int i = 0; i < columns.size(); i++) {
      Object value = key.get(i);
      String text =
          value instanceof OffsetDateTime t
              ? t.toInstant().toString()
              : value instanceof ByteBuffer b
                  ? hex(b)
                  : value instanceof byte[] bytes
                      ? hex(ByteBuffer.wrap(bytes))
                      : String.valueOf(value);
      joiner.add(columns.get(i) + "=" + text);
    }
    return joiner.toString();
  }
}
