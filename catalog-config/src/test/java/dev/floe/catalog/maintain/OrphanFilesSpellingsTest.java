package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A data file the table references under one spelling and the listing returns under another (a
 * symlinked directory, a {@code .} segment) is the same file: orphan removal keeps it, and still
 * deletes a real orphan beside it.
 */
class OrphanFilesSpellingsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private Path location;

  @BeforeEach
  void aTable() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.unpartitioned());
    location = LocalListing.localPath(table.io(), table.location()).orElseThrow();
  }

  @Test
  void keepsALiveFileReferencedThroughASymlinkedDirectory() throws IOException {
    Path link = Files.createSymbolicLink(catalog.home().resolve("alink"), location.getParent());
    String dataPath = link.resolve(location.getFileName()).resolve("data").toString();
    table.updateProperties().set(TableProperties.WRITE_DATA_LOCATION, dataPath).commit();
    TableRows.append(table, row(1), row(2));

    keepsTheLiveFileAndRemovesTheOrphan(dataPath + "/");
  }

  @Test
  void keepsALiveFileReferencedWithADotSegment() throws IOException {
    // Iceberg's location provider drops a "." from write.data.path; a writer may not.
    DataFile written = TableRows.write(table, row(1), row(2));
    String spelled = written.location().replace("/t/data/", "/t/./data/");
    assertThat(spelled).isNotEqualTo(written.location());
    table.newAppend().appendFile(respelled(written, spelled)).commit();

    keepsTheLiveFileAndRemovesTheOrphan(spelled);
  }

  @Test
  void refusesALocationWithADotDotSegment() {
    DataFile written = TableRows.write(table, row(1));
    String spelled = written.location().replace("/t/data/", "/t/data/../data/");
    table.newAppend().appendFile(respelled(written, spelled)).commit();

    assertThatThrownBy(() -> orphans(Instant.now().plus(Duration.ofDays(10))).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'..'")
        .hasMessageContaining(spelled);
    assertThat(TableContent.hash(table).rows()).isEqualTo(1);
  }

  @Test
  void keepsALiveFileWhoseDataDirectoryIsALinkInsideTheLocation() throws IOException {
    // data/ on another directory of the same location: the file has two names under it.
    Path realData = Files.createDirectories(location.resolve("data-real"));
    Files.createSymbolicLink(location.resolve("data"), realData);
    TableRows.append(table, row(1), row(2));
    table.refresh();
    List<String> live = dataFiles();
    Path orphan = Files.writeString(realData.resolve("orphan.parquet"), "orphan");
    Instant now = agedTenDays();
    ContentHash content = TableContent.hash(table);

    OrphanFilesPlan plan = orphans(now).commit();
    table.refresh();

    assertThat(plan.orphans()).extracting(OrphanFile::location).containsExactly("file:" + orphan);
    assertThat(LocalListing.localPath(table.io(), live.get(0)).orElseThrow()).exists();
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  @Test
  void neverDeletesAnotherTablesFilesBehindALinkInsideTheLocation() throws IOException {
    Table other = catalog.create("s.u", SCHEMA, PartitionSpec.unpartitioned());
    TableRows.append(other, row(7), row(8));
    Path otherData =
        LocalListing.localPath(other.io(), other.location()).orElseThrow().resolve("data");
    TableRows.append(table, row(1));
    Files.createSymbolicLink(location.resolve("data/shared"), otherData);
    Instant now = agedTenDays();
    agedTenDays(otherData, now); // old enough to be deleted, were they listed
    ContentHash otherContent = TableContent.hash(other);

    OrphanFilesPlan plan = orphans(now).commit();
    other.refresh();

    assertThat(plan.orphans()).isEmpty();
    assertThat(TableContent.hash(other)).isEqualTo(otherContent);
  }

  @Test
  void refusesWhenAReferencedPathCannotBeResolvedAndDeletesNothing() throws IOException {
    Path loop = catalog.home().resolve("loop");
    Files.createSymbolicLink(loop, loop);
    DataFile written = TableRows.write(table, row(1));
    String unresolvable = "file:" + loop.resolve("x.parquet");
    table.newAppend().appendFile(written).appendFile(respelled(written, unresolvable)).commit();
    Path orphan = Files.writeString(location.resolve("data/orphan.parquet"), "orphan");
    Instant now = agedTenDays();

    assertThatThrownBy(() -> orphans(now).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("nothing is deleted")
        .hasMessageContaining(loop.resolve("x.parquet").toString());
    assertThat(orphan).exists();
  }

  /** Ages every file of the location by ten days; returns now. */
  private Instant agedTenDays() throws IOException {
    Instant now = Instant.now();
    agedTenDays(location, now);
    return now;
  }

  private static void agedTenDays(Path directory, Instant now) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
      }
    }
  }

  /** The table's one data file, referenced as {@code spelled...}, survives; an orphan does not. */
  private void keepsTheLiveFileAndRemovesTheOrphan(String spelled) throws IOException {
    table.refresh();
    List<String> live = dataFiles();
    assertThat(live).hasSize(1).allMatch(file -> file.startsWith(spelled));
    Path orphan = Files.writeString(location.resolve("data/orphan.parquet"), "orphan");
    Instant now = Instant.now();
    try (Stream<Path> files = Files.walk(location)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(file, FileTime.from(now.minus(Duration.ofDays(10))));
      }
    }
    ContentHash content = TableContent.hash(table);

    OrphanFilesPlan plan = orphans(now).commit();
    table.refresh();

    assertThat(plan.orphans()).extracting(OrphanFile::location).containsExactly("file:" + orphan);
    assertThat(orphan).doesNotExist();
    assertThat(LocalListing.localPath(table.io(), live.get(0)).orElseThrow()).exists();
    assertThat(TableContent.hash(table)).isEqualTo(content);
  }

  private DataFile respelled(DataFile file, String location) {
    return DataFiles.builder(table.spec()).copy(file).withPath(location).build();
  }

  private List<String> dataFiles() throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return java.util.stream.StreamSupport.stream(tasks.spliterator(), false)
          .map(FileScanTask::file)
          .map(DataFile::location)
          .toList();
    }
  }

  private OrphanFiles orphans(Instant now) {
    return OrphanFiles.of(table, "s.t").clock(Clock.fixed(now, ZoneOffset.UTC));
  }

  private org.apache.iceberg.data.Record row(long id) {
    return TableRows.row(table, Map.of("id", id));
  }
}
