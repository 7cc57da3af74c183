package dev.floe.catalog.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.ResolvingFileIO;

/**
 * Lists a local table location with {@code java.nio} instead of Hadoop's local file system, which
 * costs tens of milliseconds per table (a {@code FileStatus} and a permission lookup per file). It
 * returns what {@link HadoopFileIO#listPrefix} returns there: every regular file under the
 * directory as {@code file:/path}, with its size and modification time, without the {@code
 * .name.crc} checksum files Hadoop's {@code ChecksumFileSystem} writes beside each file and hides
 * from its listings. Used only for a {@code file:} (or scheme-less) location read through {@link
 * HadoopFileIO} or {@link ResolvingFileIO}; everything else (S3, HDFS) is listed through the
 * FileIO.
 */
final class LocalListing {
  private LocalListing() {}

  /** The listing of {@code prefix}, or empty when it is not a local location of such a FileIO. */
  static Optional<List<FileInfo>> of(FileIO io, String prefix) {
    if (!(io instanceof HadoopFileIO || io instanceof ResolvingFileIO)) {
      return Optional.empty();
    }
    Optional<Path> directory = localPath(prefix);
    if (directory.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(walk(directory.get()));
  }

  /** The local path of a {@code file:} or scheme-less location; empty for any other scheme. */
  static Optional<Path> localPath(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    boolean hasScheme = colon > 0 && (slash < 0 || colon < slash);
    if (!hasScheme) {
      return location.startsWith("/") ? Optional.of(Path.of(location)) : Optional.empty();
    }
    if (!location.substring(0, colon).toLowerCase(Locale.ROOT).equals("file")) {
      return Optional.empty();
    }
    String normalised = FileLocations.normalise(location); // file:///path, no authority
    if (!normalised.startsWith("file:///")) {
      return Optional.empty(); // file://host/...: leave it to Hadoop
    }
    return Optional.of(Path.of(URI.create("file:///").resolve(normalised.substring(7))));
  }

  static List<FileInfo> walk(Path directory) {
    List<FileInfo> files = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              String name = file.getFileName().toString();
              if (attributes.isRegularFile() && !(name.startsWith(".") && name.endsWith(".crc"))) {
                files.add(
                    new FileInfo(
                        "file:" + file.toAbsolutePath(),
                        attributes.size(),
                        attributes.lastModifiedTime().toMillis()));
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // deleted while we list (a cleanup, an expiry)
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
    return files;
  }
}
