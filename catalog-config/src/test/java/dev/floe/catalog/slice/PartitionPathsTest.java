package dev.floe.catalog.slice;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class PartitionPathsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "d", Types.DateType.get()),
          Types.NestedField.optional(2, "s", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("d").identity("s").build();

  @Test
  void aNullValueAndTheStringNullAreTwoPathsEveryOtherValueIsIcebergsPath() {
    PartitionData nullValue = partition(20_364, null);
    PartitionData nullString = partition(20_364, "null");
    PartitionData other = partition(20_364, "a/b null");

    assertThat(PartitionPaths.of(SPEC, nullValue)).isEqualTo("d=2025-10-03/s=null");
    assertThat(PartitionPaths.of(SPEC, nullString)).isEqualTo("d=2025-10-03/s=\"null\"");
    // A value that holds the quotes itself is URL-encoded by Iceberg: a third, distinct path.
    assertThat(PartitionPaths.of(SPEC, partition(20_364, "\"null\"")))
        .isEqualTo("d=2025-10-03/s=%22null%22");
    assertThat(PartitionPaths.of(SPEC, other)).isEqualTo(SPEC.partitionToPath(other));
  }

  private static PartitionData partition(int day, String s) {
    PartitionData data = new PartitionData(SPEC.partitionType());
    data.set(0, day);
    data.set(1, s);
    return data;
  }
}
