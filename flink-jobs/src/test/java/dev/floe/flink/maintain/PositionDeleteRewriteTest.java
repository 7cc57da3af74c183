package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The position-delete rewrite (Spark's {@code rewrite_position_delete_files}): small position
 * delete files of a slice are combined into one, entries naming data files that are gone are
 * dropped, and the table reads the same rows.
 */
class PositionDeleteRewriteTest {
  private static final String DAY3 = "2026-10-03";

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void smallPositionDeleteFilesAreCombinedDanglingEntriesDroppedAndNoRowChanges() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, DAY3, 3, 10, 1);
    SmallFiles.append(fact, "2026-10-04", 1, 10, 100);
    List<DataFile> files = Deletes.dataFiles(fact);
    DataFile a = files.get(0);
    DataFile b = files.get(1);
    DataFile gone = files.get(2);
    // Three small files in the day: two naming a and b, one naming a file removed later.
    Deletes.commit(fact, Deletes.positions(fact, a, 1));
    Deletes.commit(fact, Deletes.positions(fact, b, 2, 3));
    Deletes.commit(fact, Deletes.positions(fact, gone, 4));
    fact.newDelete().deleteFile(gone).commit();
    fact.refresh();
    ContentHash content = TableContent.hash(fact);
    assertThat(content.rows()).isEqualTo(17 + 10);
    List<String> otherDays = List.copyOf(SmallFiles.dataFiles(fact, "2026-10-04"));
    Slice slice = CompactionSlices.resolve(SmallFiles.FACT, fact, List.of(DAY3)).get(0);

    PositionDeleteRewrite.Result result =
        PositionDeleteRewrite.of(fact, SmallFiles.FACT).rewrite(slice);

    fact.refresh();
    assertThat(result)
        .isEqualTo(
            new PositionDeleteRewrite.Result(3, 1, 1, 3, fact.currentSnapshot().snapshotId()));
    assertThat(TableContent.hash(fact)).isEqualTo(content);
    assertThat(Deletes.attachedDeletes(fact)).isEqualTo(2); // one file, on a and on b
    assertThat(fact.currentSnapshot().summary())
        .containsEntry("floe.mode", "compact")
        .containsEntry("removed-position-delete-files", "3")
        .containsEntry("added-position-delete-files", "1")
        .doesNotContainKey("floe.content-hash");
    assertThat(List.copyOf(SmallFiles.dataFiles(fact, "2026-10-04"))).isEqualTo(otherDays);

    PositionDeleteRewrite.Result again =
        PositionDeleteRewrite.of(fact, SmallFiles.FACT).rewrite(slice);
    assertThat(again.snapshotId()).isNull();
  }
}
