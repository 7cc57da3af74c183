package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Key and ordering columns are checked against the target before any data is read. */
class KeyColumnsTest {
  private static final Schema NESTED =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(
              2,
              "s",
              Types.StructType.of(
                  Types.NestedField.optional(3, "k", Types.LongType.get()),
                  Types.NestedField.optional(4, "at", Types.LongType.get()))),
          Types.NestedField.optional(5, "ver", Types.LongType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aFieldOfAStructIsRefusedAsKeyOrOrderingBeforeAnyJob() {
    // The committer reads key and ordering values by top-level position: s.k was found at -1 and
    // the run failed in its job with "Index -1 out of bounds for length 3" (exit 1).
    Table target = catalog.create("sales.nest", NESTED, PartitionSpec.unpartitioned());

    assertThatThrownBy(() -> KeyColumns.resolve(merge("[s.k]", "ver"), target))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot use sales.nest.s.k as the key of jobs/nest.yaml: it is a field of a struct;"
                + " key and ordering columns must be top-level columns");
    assertThatThrownBy(() -> KeyColumns.resolve(merge("[id]", "s.at"), target))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot use sales.nest.s.at as the ordering of jobs/nest.yaml: it is a field of a"
                + " struct; key and ordering columns must be top-level columns");
    assertThat(KeyColumns.resolve(merge("[id]", "ver"), target)).containsExactly("id");
    // Without key: in the manifest, the table's identifier fields are the key.
    Table identified =
        catalog.create(
            "sales.nest_ids",
            new Schema(
                List.of(
                    Types.NestedField.required(1, "id", Types.LongType.get()),
                    Types.NestedField.required(
                        2,
                        "s",
                        Types.StructType.of(
                            Types.NestedField.required(3, "k", Types.LongType.get()))),
                    Types.NestedField.optional(5, "ver", Types.LongType.get())),
                Set.of(3)),
            PartitionSpec.unpartitioned());
    assertThatThrownBy(() -> KeyColumns.resolve(merge(null, "ver"), identified))
        .isExactlyInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot use sales.nest.s.k as the key (the table's identifier field) of"
                + " jobs/nest.yaml");
  }

  private static JobSpec merge(String key, String ordering) {
    String text =
        String.join(
            "\n",
            "job: nest",
            "target: sales.nest",
            "mode: merge",
            key == null ? "" : "key: " + key,
            "ordering: " + ordering,
            "query: SELECT id, s, ver FROM sales.staging",
            "");
    return JobSpecParser.parse(Manifests.parse("jobs/nest.yaml", text), text);
  }
}
