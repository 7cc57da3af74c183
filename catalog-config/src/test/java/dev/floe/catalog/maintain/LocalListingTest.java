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
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.ResolvingFileIO;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

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
    Path location = LocalListing.localPath(table.io(), table.location()).orElseThrow();
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
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    assertThat(LocalListing.localPath(io, "file:/w/t")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath(io, "file:///w/t/")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath(io, "/w/t")).contains(Path.of("/w/t"));
    assertThat(LocalListing.localPath(io, "s3://bucket/w/t")).isEmpty();
    assertThat(LocalListing.localPath(io, "hdfs://nn:8020/w/t")).isEmpty();
    assertThat(LocalListing.localPath(io, "file://otherhost/w/t")).isEmpty();
    assertThat(LocalListing.of(new org.apache.iceberg.inmemory.InMemoryFileIO(), "/w/t/"))
        .isEmpty();
  }

  @Test
  void takesLocationsLiterallyAsHadoopDoes() {
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    assertThat(LocalListing.localPath(io, "file:/x/u space/t")).contains(Path.of("/x/u space/t"));
    assertThat(LocalListing.localPath(io, "file:///x/u%20b/t")).contains(Path.of("/x/u%20b/t"));
    assertThat(LocalListing.localPath(io, "file:/x/h#x/t")).contains(Path.of("/x/h#x/t"));
    assertThat(LocalListing.localPath(io, "file:/x/b/./t")).contains(Path.of("/x/b/t"));
  }

  @Test
  void aSchemeLessLocationIsLocalOnlyWhenTheDefaultFileSystemIsLocal() {
    Configuration hdfs = new Configuration();
    hdfs.set("fs.defaultFS", "hdfs://127.0.0.1:8020");
    HadoopFileIO onHdfs = new HadoopFileIO(hdfs);
    assertThat(LocalListing.localPath(onHdfs, "/w/t")).isEmpty();
    assertThat(LocalListing.of(onHdfs, "/w/t/")).isEmpty();
    assertThat(LocalListing.localPath(onHdfs, "file:/w/t")).contains(Path.of("/w/t"));
    ResolvingFileIO resolving = new ResolvingFileIO();
    resolving.setConf(hdfs);
    resolving.initialize(java.util.Map.of());
    assertThat(LocalListing.localPath(resolving, "/w/t")).isEmpty();
    Configuration local = new Configuration();
    local.set("fs.defaultFS", "file:///");
    assertThat(LocalListing.localPath(new HadoopFileIO(local), "/w/t")).contains(Path.of("/w/t"));
  }

  /**
   * Spellings the embedded catalog and users produce: a space written as is and percent-encoded
   * (which Hadoop takes literally, as a directory named {@code u%20b}), {@code %41}, {@code #}, a
   * symlinked parent and a symlinked location. For each, the nio listing must equal Hadoop's. Links
   * inside a location are left out.
   */
  @Test
  void listsWhatHadoopListsForUnusualSpellingsAndSymlinks(@TempDir Path base) throws IOException {
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    Path real = base.resolve("real");
    List<String> prefixes = new ArrayList<>();
    prefixes.add("file:" + tree(base.resolve("u space/t")));
    tree(base.resolve("u%20b/t"));
    prefixes.add("file://" + base + "/u%20b/t");
    prefixes.add("file:" + tree(base.resolve("%41/t")));
    prefixes.add("file:" + tree(base.resolve("h#x/t")));
    tree(real.resolve("t"));
    Files.createSymbolicLink(base.resolve("linked-parent"), real);
    prefixes.add("file:" + base.resolve("linked-parent/t"));
    Files.createSymbolicLink(base.resolve("linked-location"), real.resolve("t"));
    prefixes.add(base.resolve("linked-location").toString());
    // Links inside a location are not followed (Hadoop follows them): a loop, or a link to other
    // files, adds nothing to the listing.
    Path looped = tree(base.resolve("looped/t"));
    Files.createSymbolicLink(looped.resolve("data/loop"), looped);
    Path linking = tree(base.resolve("linking/t"));
    Files.createSymbolicLink(linking.resolve("data/elsewhere"), real.resolve("t/data"));
    Files.createSymbolicLink(linking.resolve("data/one.parquet"), real.resolve("t/data/b.parquet"));

    for (String location : prefixes) {
      String prefix = location + "/";
      List<FileInfo> hadoop = new ArrayList<>();
      io.listPrefix(prefix).forEach(hadoop::add);
      List<FileInfo> local = LocalListing.of(io, prefix).orElseThrow();
      assertThat(hadoop).as("Hadoop's listing of %s", prefix).hasSize(3);
      assertThat(rows(local)).as(prefix).containsExactlyInAnyOrderElementsOf(rows(hadoop));
    }
    assertThat(LocalListing.of(io, "file:" + looped + "/").orElseThrow()).hasSize(3);
    assertThat(rows(LocalListing.of(io, "file:" + linking + "/").orElseThrow()))
        .hasSize(3)
        .allMatch(row -> !row.contains("elsewhere") && !row.contains("one.parquet"));
  }

  private static Path tree(Path location) throws IOException {
    Files.createDirectories(location.resolve("data/d=1"));
    Files.createDirectories(location.resolve("metadata"));
    Files.writeString(location.resolve("data/d=1/a.parquet"), "a");
    Files.writeString(location.resolve("data/b.parquet"), "bb");
    Files.writeString(location.resolve("metadata/v1.metadata.json"), "{}");
    return location;
  }

  private static List<String> rows(List<FileInfo> files) {
    return files.stream()
        .map(f -> f.location() + " " + f.size() + " " + f.createdAtMillis())
        .toList();
  }
}
