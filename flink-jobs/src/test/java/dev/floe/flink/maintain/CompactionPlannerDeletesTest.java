package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which files compaction picks because of their delete files, and which delete files its commit
 * removes, decided from metadata (no job runs): dry runs through {@link Compaction#apply()} and the
 * planner itself.
 */
class CompactionPlannerDeletesTest {
  private static final String DAY3 = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table fact;
  private DataFile first;

  @BeforeEach
  void oneFileOfTenRows() {
    fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY3, 1, 10, 1);
    first = Deletes.dataFiles(fact).get(0);
  }

  @Test
  void aLoneFileWhosePositionDeletesReachTheRatioIsRewrittenAlone() {
    Deletes.commit(fact, Deletes.positions(fact, first, 0, 1, 2));

    SliceCompaction slice = dryRun(Compaction.of(catalog.config(), SmallFiles.FACT));

    assertThat(slice.status()).isEqualTo(SliceCompaction.Status.WOULD_COMPACT);
    assertThat(slice.rewritten().files()).isEqualTo(1);
  }

  @Test
  void aLoneFileBelowBothThresholdsIsLeftAsItIs() {
    Deletes.commit(fact, Deletes.positions(fact, first, 0, 1));

    SliceCompaction slice = dryRun(Compaction.of(catalog.config(), SmallFiles.FACT));

    assertThat(slice.status()).isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
  }

  @Test
  void theRatioAndTheFileCountComeFromTablePropertiesAndTheApi() {
    Deletes.commit(fact, Deletes.positions(fact, first, 0, 1));
    fact.updateProperties().set("floe.maintain.deleted-row-ratio", "0.2").commit();
    assertThat(dryRun(Compaction.of(catalog.config(), SmallFiles.FACT)).status())
        .isEqualTo(SliceCompaction.Status.WOULD_COMPACT);
    assertThat(
            dryRun(Compaction.of(catalog.config(), SmallFiles.FACT).deleteRatioThreshold(0.5))
                .status())
        .isEqualTo(SliceCompaction.Status.NOTHING_TO_COMPACT);
    assertThat(
            dryRun(
                    Compaction.of(catalog.config(), SmallFiles.FACT)
                        .deleteRatioThreshold(0.5)
                        .deleteFileThreshold(1))
                .status())
        .isEqualTo(SliceCompaction.Status.WOULD_COMPACT);
  }

  @Test
  void aThresholdOutOfRangeIsRefusedWithTheValue() {
    fact.updateProperties().set("floe.maintain.deleted-row-ratio", "lots").commit();
    assertThatThrownBy(
            () -> Compaction.of(catalog.config(), SmallFiles.FACT).slices(List.of(DAY3)).check())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("floe.maintain.deleted-row-ratio=lots");
    fact.updateProperties().remove("floe.maintain.deleted-row-ratio").commit();
    assertThatThrownBy(
            () ->
                Compaction.of(catalog.config(), SmallFiles.FACT)
                    .slices(List.of(DAY3))
                    .deleteFileThreshold(0)
                    .apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot compact sales.fact_orders: the delete-file threshold must be 1 or more, got 0");
  }

  @Test
  void anEqualityDeleteStaysWhileADataFileItAppliesToIsNotRewritten() {
    SmallFiles.append(fact, DAY3, 1, 10, 11); // order ids 11..20, beside 1..10
    List<DataFile> files = Deletes.dataFiles(fact);
    DataFile second =
        files.get(0).location().equals(first.location()) ? files.get(1) : files.get(0);
    DeleteFile vector = Deletes.positions(fact, first, 0, 1, 2, 3, 4);
    DeleteFile equality = Deletes.equality(fact, first.partition(), "order_id", 3, 15);
    Deletes.commit(fact, vector, equality);

    // Nothing is small (target 1 byte): only the file with half its rows deleted is picked.
    List<PlannedSlice> planned = plan(1, DeleteThresholds.of("t", 10, 0.3));

    PlannedSlice slice = planned.get(0);
    assertThat(slice.groups()).hasSize(1);
    assertThat(slice.groups().get(0).inputs())
        .extracting(DataFile::location)
        .containsExactly(first.location());
    assertThat(slice.groups().get(0).deletesOf(first))
        .extracting(DeleteFile::location)
        .containsExactlyInAnyOrder(vector.location(), equality.location());
    // The position deletes name only the rewritten file; the equality delete also applies to the
    // file that stays.
    assertThat(slice.obsoleteDeletes())
        .extracting(DeleteFile::location)
        .containsExactly(vector.location());
    assertThat(Deletes.attachedDeletes(fact)).isEqualTo(3); // the equality delete is on both
    assertThat(second.location()).isNotEqualTo(first.location());
  }

  private List<PlannedSlice> plan(long target, DeleteThresholds thresholds) {
    List<String> values = List.of(DAY3);
    return CompactionPlanner.plan(
        fact,
        fact.currentSnapshot().snapshotId(),
        values,
        CompactionSlices.resolve(SmallFiles.FACT, fact, values),
        target,
        thresholds);
  }

  private static SliceCompaction dryRun(Compaction compaction) {
    return compaction.slices(List.of(DAY3)).apply().slices().get(0);
  }
}
