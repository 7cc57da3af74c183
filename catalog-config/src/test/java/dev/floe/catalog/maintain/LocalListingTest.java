package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The java.nio listing orphan removal uses for a local table location returns exactly what
 * HadoopFileIO's {@code listPrefix} returns there (same locations, sizes and times; Hadoop's hidden
 * {@code .name.crc} files left out, other hidden files kept), and is used only where it applies.
 */
class LocalListingTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void listsWhatHadoopListsForALocalTable() throws IOException {
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    Table table = t.table("s.t");
    t.history(table, MaintenanceCatalog.OLD_DAY, 3);
    t.deleteRows(table, t.files(table, MaintenanceCatalog.OLD_DAY, 2, 4).get(0), 1);
    t.uncommitted(table, MaintenanceCatalog.OLD_DAY, Duration.ofDays(10));
    Path location = LocalListing.localPath(table.location()).orElseThrow();
    Files.writeString(location.resolve("data/.hidden-but-no-crc"), "x");
    try (var crc = Files.walk(location)) {
      assertThat(crc.filter(p -> p.getFileName().toString().endsWith(".crc")))
          .as("Hadoop's checksum files, which its listing hides")
          .isNotEmpty();
    }
    assertThat(table.io()).isInstanceOf(HadoopFileIO.class);
    String prefix = table.location() + "/";

    List<FileInfo> hadoop = new ArrayList<>();
    ((SupportsPrefixOperations) table.io()).listPrefix(prefix).forEach(hadoop::add);
    List<FileInfo> local = LocalListing.of(table.io(), prefix).orElseThrow();

    assertThat(rows(local)).containsExactlyInAnyOrderElementsOf(rows(hadoop));
    assertThat(rows(local)).anyMatch(row -> row.contains(".hidden-but-no-crc"));
    assertThat(local).hasSizeGreaterThan(10);
  }

  @Test
  void appliesOnlyToLocalLocations() {
    assertThat(LocalListing.localPath("file:/w/t")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath("file:///w/t/")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath("/w/t")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath("s3://bucket/w/t")).isEmpty();
    assertThat(LocalListing.localPath("hdfs://nn:8020/w/t")).isEmpty();
    assertThat(LocalListing.localPath("file://otherhost/w/t")).isEmpty();
    assertThat(LocalListing.of(new org.apache.iceberg.inmemory.InMemoryFileIO(), "/w/t/"))
        .isEmpty();
  }

  private static List<String> rows(List<FileInfo> files) {
    return files.stream()
        .map(f -> f.location() + " " + f.size() + " " + f.createdAtMillis())
        .toList();
  }
}
