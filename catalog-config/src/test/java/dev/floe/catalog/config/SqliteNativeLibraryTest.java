package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

class SqliteNativeLibraryTest {
  @TempDir Path dir;

  @Test
  void keptCopyIsTheJarsLibraryNamedByDriverVersionAndPlatform() throws IOException {
    Path copy = SqliteNativeLibrary.keptCopy(dir.resolve("native"));

    assertThat(copy.getParent().getParent()).isEqualTo(dir.resolve("native"));
    assertThat(copy.getParent().getFileName().toString())
        .startsWith("sqlite-" + SQLiteJDBCLoader.getVersion() + "-");
    assertThat(copy.getFileName().toString()).isEqualTo(LibraryLoaderUtil.getNativeLibName());
    assertThat(Files.readAllBytes(copy)).isEqualTo(jarsLibrary());
    assertThat(Files.list(copy.getParent())).containsExactly(copy); // no temporary file left
  }

  @Test
  void copyThatDiffersFromTheJarsIsWrittenAgain() throws IOException {
    Path copy = SqliteNativeLibrary.keptCopy(dir);
    Files.write(copy, new byte[] {1, 2, 3}); // e.g. cut short by a full disk in another tool
    assertThat(SqliteNativeLibrary.keptCopy(dir)).isEqualTo(copy);
    assertThat(Files.readAllBytes(copy)).isEqualTo(jarsLibrary());

    Files.write(copy, new byte[(int) Files.size(copy)]); // the right size, not a library
    assertThat(SqliteNativeLibrary.keptCopy(dir)).isEqualTo(copy);
    assertThat(Files.readAllBytes(copy)).isEqualTo(jarsLibrary());
  }

  @Test
  void driverIsLeftAloneWithoutAFolderWithAFolderThatCannotBeWrittenOrWithItsOwnSettings()
      throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
    String path = System.getProperty(SqliteNativeLibrary.LIB_PATH);
    String name = System.getProperty(SqliteNativeLibrary.LIB_NAME);
    try {
      System.clearProperty(SqliteNativeLibrary.LIB_PATH);
      System.clearProperty(SqliteNativeLibrary.LIB_NAME);
      assertThat(SqliteNativeLibrary.pointDriverAt(null)).isFalse();
      assertThat(SqliteNativeLibrary.pointDriverAt(" ")).isFalse();
      assertThat(SqliteNativeLibrary.pointDriverAt(file.toString())).isFalse();
      assertThat(System.getProperty(SqliteNativeLibrary.LIB_PATH)).isNull();
      assertThat(System.getProperty(SqliteNativeLibrary.LIB_NAME)).isNull();

      System.setProperty(SqliteNativeLibrary.LIB_NAME, "mine.so");
      assertThat(SqliteNativeLibrary.pointDriverAt(dir.toString())).isFalse();
      assertThat(System.getProperty(SqliteNativeLibrary.LIB_PATH)).isNull();
      assertThat(System.getProperty(SqliteNativeLibrary.LIB_NAME)).isEqualTo("mine.so");
    } finally {
      restore(SqliteNativeLibrary.LIB_PATH, path);
      restore(SqliteNativeLibrary.LIB_NAME, name);
    }
  }

  @Test
  void commandStillOpensTheCatalogWhenTheFolderCannotBeWritten() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
    Path temp = Files.createDirectories(dir.resolve("tmp"));

    List<String> mapped = probe("-D" + SqliteNativeLibrary.CACHE_FOLDER + "=" + file, temp);

    assertThat(mapped).singleElement().asString().startsWith(temp.toString());
  }

  @Test
  void corruptCopyIsReplacedBeforeTheDriverLoadsIt() throws Exception {
    Path cache = dir.resolve("cache");
    Path copy = SqliteNativeLibrary.keptCopy(cache);
    Files.write(copy, new byte[(int) Files.size(copy)]); // zeros: not a library
    Path temp = Files.createDirectories(dir.resolve("tmp"));

    List<String> mapped = probe("-D" + SqliteNativeLibrary.CACHE_FOLDER + "=" + cache, temp);

    assertThat(mapped).containsExactly(copy.toString());
    assertThat(Files.readAllBytes(copy)).isEqualTo(jarsLibrary());
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }

  private static byte[] jarsLibrary() throws IOException {
    try (InputStream in =
        SQLiteJDBCLoader.class.getResourceAsStream(
            LibraryLoaderUtil.getNativeLibResourcePath()
                + "/"
                + LibraryLoaderUtil.getNativeLibName())) {
      return in.readAllBytes();
    }
  }

  /** The files the probe's JVM mapped SQLite's library from; it must exit 0. */
  private List<String> probe(String property, Path temp) throws Exception {
    Path home = Files.createTempDirectory(dir, "home");
    List<String> lines =
        ProbeJvm.run(
            dir,
            SqliteLibraryProbe.class,
            List.of(property, "-Djava.io.tmpdir=" + temp),
            home.toString());
    // Only the probe's lines: a library that loads badly makes the JVM print a warning here.
    assertThat(lines).allMatch(line -> line.startsWith("/"));
    return lines;
  }
}
