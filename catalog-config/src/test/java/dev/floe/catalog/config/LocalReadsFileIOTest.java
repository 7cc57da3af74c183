package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalReadsFileIOTest {
  @TempDir Path dir;

  private static LocalReadsFileIO io() {
    LocalReadsFileIO io = new LocalReadsFileIO();
    io.setConf(HadoopConfs.defaults());
    io.initialize(Map.of());
    return io;
  }

  private static HadoopFileIO hadoop() {
    return new HadoopFileIO(HadoopConfs.defaults());
  }

  @Test
  void aFileLocationNamesTheFileHadoopsLocalFileSystemWouldRead() {
    RawLocalFileSystem hadoop = new RawLocalFileSystem();
    hadoop.setConf(new Configuration(false));
    for (String location :
        List.of(
            "file:/tmp/w/sales/t/metadata/v1.metadata.json",
            "file:///tmp/w/sales/t/data/order_date=2026-10-03/00000-0.parquet",
            "file:/tmp/a b/w/x.avro",
            "file:///tmp/a%20b/w/x.avro",
            "file:/tmp/a%25b/w/x.avro",
            "file:/tmp/w/../w/./x")) {
      assertThat(LocalReadsFileIO.localFile(location))
          .as(location)
          .isEqualTo(hadoop.pathToFile(new org.apache.hadoop.fs.Path(location)));
    }
  }

  @Test
  void anyOtherLocationIsReadByHadoop() {
    LocalReadsFileIO io = io();
    // (Hadoop makes an input file only for a scheme it has a file system for: no s3 here)
    for (String location : List.of("/tmp/w/x", "relative/x", "file://host/w/x")) {
      assertThat(io.newInputFile(location)).as(location).isInstanceOf(HadoopInputFile.class);
      assertThat(io.newInputFile(location, 3)).as(location).isInstanceOf(HadoopInputFile.class);
    }
  }

  @Test
  void readsTheBytesHadoopWroteAndKeepsTheLocationAsGiven() throws IOException {
    byte[] content = new byte[200_000];
    new Random(7).nextBytes(content);
    String location = dir.resolve("a b").resolve("data.bin").toUri().toString();
    try (PositionOutputStream out = hadoop().newOutputFile(location).create()) {
      out.write(content);
    }
    for (InputFile file :
        List.of(io().newInputFile(location), io().newInputFile(location, 200_000))) {
      assertThat(file).isNotInstanceOf(HadoopInputFile.class);
      assertThat(file.location()).isEqualTo(location);
      assertThat(file.exists()).isTrue();
      assertThat(file.getLength()).isEqualTo(content.length);
      try (SeekableInputStream in = file.newStream()) {
        assertThat(in.readAllBytes()).isEqualTo(content);
      }
    }
    InputFile hadoopReads = hadoop().newInputFile(location);
    try (SeekableInputStream in = hadoopReads.newStream()) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
  }

  @Test
  void aMissingFileADirectoryOrAFileThatCannotBeOpenedFailsAsWithHadoop() throws IOException {
    String location = dir.resolve("missing.avro").toUri().toString();
    for (InputFile file : List.of(io().newInputFile(location), hadoop().newInputFile(location))) {
      assertThat(file.exists()).isFalse();
      assertThatThrownBy(file::getLength).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(file::newStream).isInstanceOf(NotFoundException.class);
    }
    // A file that cannot be opened: Hadoop reports it as not found, and Iceberg's metadata
    // refresh gives up at once only then (any other error is retried for a minute and a half).
    Path loop = dir.resolve("loop-a");
    Files.createSymbolicLink(loop, dir.resolve("loop-b"));
    Files.createSymbolicLink(dir.resolve("loop-b"), loop);
    String looping = loop.toUri().toString();
    for (InputFile file : List.of(io().newInputFile(looping), hadoop().newInputFile(looping))) {
      assertThatThrownBy(file::getLength).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(file::newStream).isInstanceOf(NotFoundException.class);
    }
    String directory = Files.createDirectories(dir.resolve("metadata")).toUri().toString();
    for (InputFile file : List.of(io().newInputFile(directory), hadoop().newInputFile(directory))) {
      assertThat(file.exists()).isTrue();
      assertThatThrownBy(file::newStream).isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void onlyFloesOwnEmbeddedCatalogsReadWithItUnlessTheConfigurationNamesAnotherFileIo() {
    String io = CatalogProperties.FILE_IO_IMPL;
    CatalogConfig embedded = CatalogConfigLoader.embedded(dir);
    CatalogConfig ownIo =
        CatalogConfigLoader.load(null, dir, Map.of(io, "org.example.OwnFileIO"), Map.of());
    CatalogConfig jdbc =
        CatalogConfigLoader.load(
            null,
            dir,
            Map.of("type", "jdbc", "uri", "jdbc:sqlite:" + dir.resolve("c.db")),
            Map.of());

    assertThat(Catalogs.openProperties(embedded))
        .containsEntry(io, LocalReadsFileIO.class.getName());
    // What another engine is given (Spark): it has not got Floe's classes.
    assertThat(Catalogs.icebergProperties(embedded)).doesNotContainKey(io);
    assertThat(Catalogs.openProperties(ownIo)).containsEntry(io, "org.example.OwnFileIO");
    assertThat(Catalogs.openProperties(jdbc)).doesNotContainKey(io);
    CatalogConfig encrypted =
        CatalogConfigLoader.load(
            null, dir, Map.of(CatalogProperties.ENCRYPTION_KMS_TYPE, "aws"), Map.of());
    assertThat(Catalogs.openProperties(encrypted)).doesNotContainKey(io);
  }

  @Test
  void theEmbeddedCatalogReadsATableWithoutStartingHadoopsFileSystem() throws Exception {
    Path home = dir.resolve("home");
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      Table table =
          catalog.createTable(
              TableIdentifier.of("sales", "orders"),
              new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
      assertThat(table.io()).isInstanceOf(LocalReadsFileIO.class);
      table
          .newAppend()
          .appendFile(
              DataFiles.builder(PartitionSpec.unpartitioned())
                  .withPath(table.location() + "/data/00000-0.parquet")
                  .withFileSizeInBytes(100)
                  .withRecordCount(1)
                  .withFormat(FileFormat.PARQUET)
                  .build())
          .commit();
    } finally {
      Catalogs.close(catalog);
    }

    assertThat(probe(home, "sales.orders")).isEqualTo("files=1 filesystems=0");
  }

  private String probe(Path home, String table) throws Exception {
    List<String> lines =
        ProbeJvm.run(dir, LocalReadsProbe.class, List.of(), home.toString(), table);
    assertThat(lines).hasSize(1);
    return lines.get(0);
  }
}
