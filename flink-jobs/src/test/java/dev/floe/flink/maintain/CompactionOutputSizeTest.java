package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The files a compaction writes stay near the target also when their rows take much more room than
 * the inputs' did: a floor of rows per file (so a rewrite never writes more files than planned)
 * must not make one file many times the target.
 */
class CompactionOutputSizeTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()),
          Types.NestedField.required(3, "s", Types.StringType.get()));
  private static final LocalDate DAY = LocalDate.of(2026, 1, 5);

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void filesWhoseRowsCompressLessThanTheInputsCloseAtTwiceTheTarget() throws Exception {
    Table table = compressedTableWrittenUncompressedFromNowOn();
    long inputBytes = files(table).stream().mapToLong(DataFile::fileSizeInBytes).sum();
    long target = inputBytes / 4;
    ContentHash content = TableContent.hash(table);

    CompactionResult result =
        Compaction.of(catalog.config(), "s.t")
            .slices(List.of(DAY.toString()))
            .targetFileSizeBytes(target)
            .commit();

    assertThat(result.exitCode()).as(result.slices().toString()).isZero();
    table.refresh();
    List<DataFile> written = files(table);
    long writtenBytes = written.stream().mapToLong(DataFile::fileSizeInBytes).sum();
    assertThat(writtenBytes).as("uncompressed is larger").isGreaterThan(3 * inputBytes);
    // Checked every 1000 rows, as Iceberg's writer does: a little past twice the target.
    assertThat(written)
        .as(
            "target %d, files %s",
            target, written.stream().map(f -> f.fileSizeInBytes() + "/" + f.recordCount()).toList())
        .allSatisfy(f -> assertThat(f.fileSizeInBytes()).isLessThan(2 * target + target / 2));
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  @Test
  void aFailedCompactionDeletesEveryFileItWroteAlsoPastThePlannedCount() throws Exception {
    // The rewriters finish, then the commit fails: the client deletes their files by name, and
    // they wrote some ten times the planned count.
    Table table = compressedTableWrittenUncompressedFromNowOn();
    long target = files(table).stream().mapToLong(DataFile::fileSizeInBytes).sum() / 4;
    long head = table.currentSnapshot().snapshotId();
    Set<String> warehouse = SmallFiles.warehouse(table);

    assertThatThrownBy(
            () ->
                Compaction.of(catalog.config(), "s.t")
                    .slices(List.of(DAY.toString()))
                    .targetFileSizeBytes(target)
                    .failAt(FailurePoint.BEFORE_COMMIT)
                    .commit())
        .hasMessageContaining("Injected failure");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    assertThat(SmallFiles.warehouse(table)).isEqualTo(warehouse);
  }

  /**
   * Twelve files of 20,000 rows of three repeated words, zstd with dictionaries; from then on the
   * table writes them uncompressed and without dictionaries (several times the room), with small
   * pages so that the estimate's uncompressed excess stays small.
   */
  private Table compressedTableWrittenUncompressedFromNowOn() {
    Table table =
        catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    Random random = new Random(5);
    List<String> words = List.of("alpha-bravo-charlie", "delta-echo-foxtrot", "golf-hotel-india");
    long id = 0;
    for (int f = 0; f < 12; f++) {
      Record[] rows = new Record[20000];
      for (int r = 0; r < rows.length; r++) {
        rows[r] =
            TableRows.row(
                table, Map.of("id", id++, "d", DAY, "s", words.get(random.nextInt(words.size()))));
      }
      TableRows.append(table, rows);
    }
    table
        .updateProperties()
        .set(TableProperties.PARQUET_COMPRESSION, "uncompressed")
        .set(TableProperties.PARQUET_DICT_SIZE_BYTES, "1")
        .set(TableProperties.PARQUET_PAGE_SIZE_BYTES, "1024")
        .commit();
    table.refresh();
    return table;
  }

  private static List<DataFile> files(Table table) throws java.io.IOException {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file()));
    }
    return files;
  }
}
