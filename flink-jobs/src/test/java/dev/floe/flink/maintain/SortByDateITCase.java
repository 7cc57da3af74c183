package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.spec.MaintenancePolicy;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End to end: strategy sort on the docs' own fact table with the most natural sort order,
 * (order_date, order_id): the Flink job fails in GroupRewriter (RowLayout.order hands LocalDate to
 * SortOrderComparators, which wants Iceberg's Integer days) and nothing is compacted.
 */
class SortByDateITCase {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void sortByDateThenIdCompacts() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    Unsorted.append(fact, "2026-10-03", 6, 50, 3);
    fact.replaceSortOrder().asc("order_date").asc("order_id").commit();
    fact.updateProperties().set(MaintenancePolicy.STRATEGY, "sort").commit();
    ContentHash before = TableContent.hash(catalog.load(SmallFiles.FACT));

    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03"))
            .targetFileSizeBytes(1 << 30)
            .commit();

    assertThat(result.exitCode()).as("%s", result.slices().get(0).detail()).isZero();
    assertThat(result.slices().get(0).status()).isEqualTo(SliceCompaction.Status.COMPACTED);
    assertThat(TableContent.hash(catalog.load(SmallFiles.FACT))).isEqualTo(before);
  }
}
