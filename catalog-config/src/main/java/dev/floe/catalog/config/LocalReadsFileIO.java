package dev.floe.catalog.config;

import java.io.File;
import java.net.URI;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.InputFile;

/**
 * Iceberg's {@link HadoopFileIO}, except that a {@code file:} location is read directly ({@link
 * LocalInputFile}) instead of through Hadoop's local file system. Writing, deleting and listing
 * stay Hadoop's, so the files, their modes and their {@code .crc} files are the same.
 *
 * <p>Why: the first read through Hadoop creates its file system, which parses Hadoop's XML defaults
 * four more times, initializes its user and security classes and registers its shutdown hooks:
 * about a fifth of a metadata command's start-up ({@code floe snapshots}), and all of it is for
 * reading one metadata file. The embedded catalog uses it, in this JVM and in Flink's catalog
 * ({@link Catalogs#openProperties}), unless its configuration names an {@code io-impl} or an
 * encryption key management service.
 *
 * <p>A location maps to the same file as Hadoop maps it ({@code new Path(location).toUri()
 * .getPath()}, as its local file system does). A location without a scheme, or with another one, is
 * read by Hadoop as before (its default file system may not be the local one). Hadoop verified a
 * {@code .crc} file while reading; this does not (Iceberg's other file systems have none either).
 */
public class LocalReadsFileIO extends HadoopFileIO {

  /** The constructor Iceberg's {@code io-impl} instantiates. */
  public LocalReadsFileIO() {}

  @Override
  public InputFile newInputFile(String location) {
    File local = localFile(location);
    return local == null ? super.newInputFile(location) : new LocalInputFile(location, local, -1);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    File local = localFile(location);
    return local == null
        ? super.newInputFile(location, length)
        : new LocalInputFile(location, local, length);
  }

  /** The local file a {@code file:} location names, as Hadoop's local file system finds it. */
  public static File localFile(String location) {
    // Hadoop knows the scheme in lower case only.
    if (location == null || !location.startsWith("file:")) {
      return null;
    }
    URI uri = new Path(location).toUri();
    String path = uri.getPath();
    // file://host/... names another machine's file for Hadoop; leave anything unusual to it.
    if (path == null
        || !path.startsWith("/")
        || (uri.getAuthority() != null && !uri.getAuthority().isEmpty())) {
      return null;
    }
    return new File(path);
  }
}
