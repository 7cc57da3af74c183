package dev.floe.flink.commit;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import dev.floe.flink.check.Violations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;

/**
 * Turns duplicated key hashes into keys a person can read ({@code order_id=1}), by reading the key
 * columns of the files this run wrote. Only a failing unique check pays for it; the writers ship
 * nothing but hashes.
 */
final class DuplicateKeySamples {

  private DuplicateKeySamples() {}

  static CheckStats describe(
      Table table, List<DataFile> files, List<CheckSpec> checks, DuplicateKeys duplicates) {
    CheckStats described = new CheckStats();
    for (int index : duplicates.failedChecks()) {
      List<String> columns = checks.get(index).columns();
      Map<DuplicateKeys.KeyHash, String> keys =
          find(table, files, columns, duplicates.samples(index));
      Violations violations = described.of(index);
      for (DuplicateKeys.KeyHash hash : duplicates.samples(index)) {
        violations.add(keys.getOrDefault(hash, "key hash " + Long.toHexString(hash.high())));
      }
      violations.addUnsampled(duplicates.count(index) - duplicates.samples(index).size());
    }
    return described;
  }

  private static Map<DuplicateKeys.KeyHash, String> find(
      Table table, List<DataFile> files, List<String> columns, List<DuplicateKeys.KeyHash> wanted) {
    // The key columns in the check's order: the order the writers hashed them in.
    Schema keySchema = new Schema(columns.stream().map(c -> table.schema().findField(c)).toList());
    RecordHasher hasher = new RecordHasher(keySchema);
    Map<DuplicateKeys.KeyHash, String> found = new LinkedHashMap<>();
    for (DataFile file : files) {
      try (CloseableIterable<Record> records =
          Parquet.read(table.io().newInputFile(file.location()))
              .project(keySchema)
              .createReaderFunc(
                  fileSchema -> GenericParquetReaders.buildReader(keySchema, fileSchema))
              .build()) {
        for (Record record : records) {
          long[] hash = hasher.hash128(record);
          DuplicateKeys.KeyHash key = new DuplicateKeys.KeyHash(hash[0], hash[1]);
          if (wanted.contains(key) && !found.containsKey(key)) {
            found.put(key, display(columns, record));
            if (found.size() == wanted.size()) {
              return found;
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + file.location() + " for sample keys", e);
      }
    }
    return found;
  }

  private static String hex(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static String display(List<String> columns, Record record) {
    StringJoiner joiner = new StringJoiner(", ");
    for (int i = 0; i < columns.size(); i++) {
      Object value = record.get(i);
      String text =
          value instanceof OffsetDateTime t
              ? t.toInstant().toString()
              : value instanceof ByteBuffer b ? hex(b) : String.valueOf(value);
      joiner.add(columns.get(i) + "=" + text);
    }
    return joiner.toString();
  }
}
