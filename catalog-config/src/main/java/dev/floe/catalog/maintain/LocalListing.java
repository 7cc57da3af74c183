package dev.floe.catalog.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.ResolvingFileIO;

/**
 * Lists a local table location with {@code java.nio} instead of Hadoop's local file system, which
 * costs tens of milliseconds per table (a {@code FileStatus} and a permission lookup per file).
 *
 * <p>A location is parsed with Hadoop's own {@link org.apache.hadoop.fs.Path}, so it names the
 * directory Hadoop's local file system reads: taken literally ({@code %20}, {@code %41} and {@code
 * #} are characters of the name, a space is a space), with repeated slashes and {@code .} segments
 * removed and {@code ..} resolved as Hadoop does. A location that is itself a link (or lies under
 * one) is listed through it, as Hadoop does, but links INSIDE the location are not followed, unlike
 * Hadoop: a link there can lead to another table's files (which would look unreferenced here and be
 * deleted) or show a file twice under two names (one of which matches no reference). What lies
 * behind such a link is never listed, so never deleted; a referenced file reached through one is
 * matched by its real path ({@link SameLocalFiles}). Every regular file under the directory is
 * returned as {@code file:/path}, spelled under the location as given, with its size and
 * modification time, without the {@code .name.crc} checksum files Hadoop's {@code
 * ChecksumFileSystem} writes beside each file and hides from its listings. {@code LocalListingTest}
 * checks that this equals {@link HadoopFileIO#listPrefix} for these spellings and for a linked
 * location, and that links inside the location are left out.
 *
 * <p>Used only for a location read through {@link HadoopFileIO} or {@link ResolvingFileIO} that is
 * {@code file:} without a host, or absolute without a scheme while the FileIO's {@code
 * fs.defaultFS} is {@code file:} (Hadoop resolves a scheme-less location against it); everything
 * else (S3, HDFS, a relative path) is listed through the FileIO.
 */
final class LocalListing {
  private LocalListing() {}

  /** The listing of {@code prefix}, or empty when it is not a local location of such a FileIO. */
  static Optional<List<FileInfo>> of(FileIO io, String prefix) {
    return localPath(io, prefix).map(LocalListing::walk);
  }

  /**
   * The local file or directory {@code location} names for {@code io}, as Hadoop's local file
   * system reads it; empty when {@code io} is not Hadoop's or the location is not local.
   */
  static Optional<Path> localPath(FileIO io, String location) {
    Configuration conf;
    if (io instanceof HadoopFileIO hadoop) {
      conf = hadoop.conf();
    } else if (io instanceof ResolvingFileIO resolving) {
      conf = resolving.getConf();
    } else {
      return Optional.empty();
    }
    org.apache.hadoop.fs.Path hadoopPath;
    try {
      hadoopPath = new org.apache.hadoop.fs.Path(location);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // let the FileIO report it
    }
    URI uri = hadoopPath.toUri();
    String scheme = uri.getScheme();
    if (scheme == null) {
      if (conf == null || !"file".equalsIgnoreCase(FileSystem.getDefaultUri(conf).getScheme())) {
        return Optional.empty(); // resolved against another default file system
      }
    } else if (!scheme.equalsIgnoreCase("file")) {
      return Optional.empty();
    }
    if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
      return Optional.empty(); // file://host/...: leave it to Hadoop
    }
    // What RawLocalFileSystem.pathToFile reads: the decoded URI path, i.e. the literal string.
    String path = uri.getPath();
    if (path == null || !path.startsWith("/")) {
      return Optional.empty(); // relative: Hadoop resolves it against its working directory
    }
    return Optional.of(Path.of(path));
  }

  static List<FileInfo> walk(Path directory) {
    List<FileInfo> files = new ArrayList<>();
    Path real;
    try {
      real = directory.toRealPath();
    } catch (NoSuchFileException e) {
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
    if (!Files.isDirectory(real)) {
      return files;
    }
    try {
      // Not following links: a link inside the location is visited as a file, not a regular one,
      // and skipped with what it points to.
      Files.walkFileTree(
          real,
          EnumSet.noneOf(FileVisitOption.class),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              String name = file.getFileName().toString();
              if (attributes.isRegularFile() && !(name.startsWith(".") && name.endsWith(".crc"))) {
                files.add(
                    new FileInfo(
                        "file:" + directory.resolve(real.relativize(file)).toAbsolutePath(),
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
