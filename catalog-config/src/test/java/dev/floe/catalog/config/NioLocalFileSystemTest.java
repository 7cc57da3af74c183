package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NioLocalFileSystem} leaves files and directories with exactly the modes Hadoop's {@link
 * LocalFileSystem} (which forks {@code chmod}) leaves, and the same {@code .crc} files.
 */
class NioLocalFileSystemTest {

  @TempDir java.nio.file.Path temp;

  @ParameterizedTest(name = "umask {0}")
  @ValueSource(strings = {"", "077", "002", "027"})
  void filesAndDirectoriesGetTheModesHadoopsLocalFileSystemGives(String umask) throws Exception {
    Map<String, String> hadoops = createTree(LocalFileSystem.class, umask, temp.resolve("hadoop"));
    Map<String, String> nio = createTree(NioLocalFileSystem.class, umask, temp.resolve("nio"));

    assertThat(nio).isEqualTo(hadoops);
    // the tree really has what it should: files, their .crc, directories, set-ID and sticky bits
    assertThat(nio)
        .containsKeys("data/a.parquet", "data/.a.parquet.crc", "metadata/m.json", "sticky")
        .containsEntry("sticky", "41777")
        .containsEntry("setgid/child", "42" + dirBits(umask));
  }

  @Test
  void floesConfigurationsReadFileThroughTheNioFileSystem() throws Exception {
    // newInstance resolves the class from the configuration as FileSystem.get does, but skips the
    // JVM-wide cache (which another test may have filled with Hadoop's own)
    try (FileSystem fs = FileSystem.newInstance(URI.create("file:///"), HadoopConfs.defaults())) {
      assertThat(fs).isExactlyInstanceOf(NioLocalFileSystem.class);
      assertThat(((LocalFileSystem) fs).getRawFileSystem())
          .isExactlyInstanceOf(NioRawLocalFileSystem.class);
    }
  }

  @Test
  void setsModesThroughJavaNioWithoutFallingBackToChmod() throws Exception {
    // the mode comparison above passes with chmod as well: this pins that java.nio did the work
    java.nio.file.Path dir = Files.createDirectory(temp.resolve("d"));
    java.nio.file.Path file = Files.createFile(temp.resolve("f"));

    assertThat(NioRawLocalFileSystem.setMode(dir.toFile(), 01750)).isTrue();
    assertThat(NioRawLocalFileSystem.setMode(file.toFile(), 0640)).isTrue();

    assertThat(Files.getAttribute(dir, "unix:mode")).isEqualTo(0041750);
    assertThat(Files.getAttribute(file, "unix:mode")).isEqualTo(0100640);
  }

  @Test
  void aNameJavaNioCannotRepresentIsLeftToChmodInsteadOfFailing() throws Exception {
    // a non-ASCII name under the C locale fails java.nio's path conversion, as a NUL does anywhere
    java.io.File unrepresentable = new java.io.File(temp.toFile(), "a\u0000b");

    assertThat(NioRawLocalFileSystem.setMode(unrepresentable, 0640)).isFalse();
  }

  @Test
  void settingThePermissionOfAMissingFileIsFileNotFound() throws Exception {
    try (FileSystem fs = newInstance(NioLocalFileSystem.class, "")) {
      Path missing = new Path(temp.resolve("missing").toUri());
      assertThatThrownBy(() -> fs.setPermission(missing, new FsPermission((short) 0644)))
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("Cannot set the permission of")
          .hasMessageContaining("missing");
    }
  }

  private static String dirBits(String umask) {
    int mask = umask.isEmpty() ? 022 : Integer.parseInt(umask, 8);
    return Integer.toOctalString(0777 & ~mask);
  }

  /** Creates the same tree through {@code impl}; returns each entry's octal mode by name. */
  private static Map<String, String> createTree(
      Class<? extends FileSystem> impl, String umask, java.nio.file.Path root) throws Exception {
    Files.createDirectories(root);
    // a directory with set-group-ID (as a shared warehouse directory may have): chmod keeps it
    Files.createDirectory(root.resolve("setgid"));
    Files.setAttribute(root.resolve("setgid"), "unix:mode", 02775);
    try (FileSystem fs = newInstance(impl, umask)) {
      Path base = new Path(root.toUri());
      write(fs.create(new Path(base, "data/a.parquet")));
      write(fs.create(new Path(base, "metadata/m.json"), false));
      write(
          fs.create(
              new Path(base, "explicit/e.avro"),
              new FsPermission((short) 0640),
              true,
              4096,
              (short) 1,
              1 << 20,
              null));
      fs.mkdirs(new Path(base, "deep/er/still"));
      fs.mkdirs(new Path(base, "with-mode"), new FsPermission((short) 0750));
      fs.mkdirs(new Path(base, "setgid/child"));
      write(fs.create(new Path(base, "setgid/child/f")));
      fs.mkdirs(new Path(base, "sticky"));
      fs.setPermission(new Path(base, "sticky"), new FsPermission((short) 01777));
      write(fs.create(new Path(base, "chmodded")));
      fs.setPermission(new Path(base, "chmodded"), new FsPermission((short) 0604));
      fs.rename(new Path(base, "chmodded"), new Path(base, "renamed"));
    }
    Map<String, String> modes = new TreeMap<>();
    try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
      for (java.nio.file.Path p : walk.filter(p -> !p.equals(root)).toList()) {
        modes.put(
            root.relativize(p).toString(),
            Integer.toOctalString((Integer) Files.getAttribute(p, "unix:mode") & 077777));
      }
    }
    return modes;
  }

  private static FileSystem newInstance(Class<? extends FileSystem> impl, String umask)
      throws IOException {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", impl.getName());
    if (!umask.isEmpty()) {
      conf.set("fs.permissions.umask-mode", umask);
    }
    return FileSystem.newInstance(URI.create("file:///"), conf);
  }

  private static void write(FSDataOutputStream out) throws IOException {
    try (out) {
      out.write(List.of(1, 2, 3).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }
}
