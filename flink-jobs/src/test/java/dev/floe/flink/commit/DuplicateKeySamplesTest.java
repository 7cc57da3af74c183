package dev.floe.flink.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.job.CheckSpec;
import dev.floe.catalog.lineage.RecordHasher;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The confirmation of the finders' candidate hashes against the keys in the written files: a
 * candidate counts only when its key really occurs twice, so a hash shared by two different keys
 * (which is all a collision looks like from here) does not fail the check.
 */
class DuplicateKeySamplesTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()));
  private static final List<CheckSpec> CHECKS =
      List.of(new CheckSpec.NotNull(List.of("region")), new CheckSpec.Unique(List.of("order_id")));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void createTable() {
    table = catalog.create("sales.orders", SCHEMA, PartitionSpec.unpartitioned());
  }

  @Test
  void aCandidateWhoseKeyOccursOnceIsNotADuplicate() {
    List<DataFile> files = List.of(TableRows.write(table, row(1, "eu"), row(2, "us")));
    DuplicateKeys candidates = new DuplicateKeys();
    candidates.add(1, keyHash(1)); // what a finder reports when key 1 collides with another

    CheckStats described = DuplicateKeySamples.describe(table, files, CHECKS, candidates);

    assertThat(described.count(1)).isZero();
  }

  @Test
  void countsEveryKeyThatOccursTwiceAcrossFilesAndSamplesTheSmallestThree() {
    List<DataFile> files =
        List.of(
            TableRows.write(table, row(4, "eu"), row(2, "eu"), row(3, "eu"), row(5, "eu")),
            TableRows.write(table, row(1, "us"), row(2, "us"), row(3, "us"), row(4, "us")),
            TableRows.write(table, row(1, "eu"), row(1, null)));
    DuplicateKeys candidates = new DuplicateKeys();
    for (long key : new long[] {4, 3, 5, 2, 1}) { // 5 occurs once: not a duplicate
      candidates.add(1, keyHash(key));
    }

    for (int perPass : new int[] {1, 2, 1 << 18}) {
      CheckStats described =
          DuplicateKeySamples.describe(table, files, CHECKS, candidates, perPass);

      assertThat(described.count(1)).as("per pass %d", perPass).isEqualTo(4);
      assertThat(described.of(1).samples())
          .as("per pass %d", perPass)
          .containsExactly("order_id=1", "order_id=2", "order_id=3");
      assertThat(described.count(0)).isZero();
    }
  }

  private Record row(long orderId, String region) {
    Map<String, Object> values = new HashMap<>();
    values.put("order_id", orderId);
    values.put("region", region);
    return TableRows.row(table, values);
  }

  private static long keyHash(long orderId) {
    Schema key = new Schema(SCHEMA.findField("order_id"));
    GenericRecord record = GenericRecord.create(key);
    record.setField("order_id", orderId);
    return new RecordHasher(key).hash64(record);
  }
}
