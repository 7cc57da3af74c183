package dev.floe.catalog.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Lets the SQLite driver (the embedded catalog, a SQLite outbox) load its native library from a
 * copy kept in a folder bin/floe owns ({@value #CACHE_FOLDER}), instead of the copy sqlite-jdbc
 * writes to the temporary folder, and checks, in every JVM: 0.1 s of every command on the embedded
 * catalog.
 *
 * <p>The copy keeps the library's name, in a folder named by sqlite-jdbc's version and the
 * library's platform. It is written to a temporary file and renamed into place, and is used only
 * while its CRC-32 equals the library's in the jar (else it is written again). Nothing here can
 * fail a command: without the property, with sqlite-jdbc's own {@code org.sqlite.lib.path} or
 * {@code org.sqlite.lib.name} set, or when the folder cannot be written, sqlite-jdbc loads its
 * library as it always did. On a folder mounted {@code noexec} the copy does not load; sqlite-jdbc
 * then logs that (to the log file, not the terminal) and extracts its own, as before.
 */
public final class SqliteNativeLibrary {
  /** System property: the folder to keep the copy in (bin/floe sets it); unset or blank: none. */
  static final String CACHE_FOLDER = "floe.native-cache";

  /** sqlite-jdbc's own properties: load {@code <path>/<name>} before extracting anything. */
  static final String LIB_PATH = "org.sqlite.lib.path";

  static final String LIB_NAME = "org.sqlite.lib.name";

  /** A temporary file this old was left by a JVM that died while writing it. */
  private static final Duration STALE = Duration.ofMinutes(10);

  /** Read for the age of temporary files only. */
  private static final Clock CLOCK = Clock.systemUTC();

  private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);

  private static boolean prepared;

  private SqliteNativeLibrary() {}

  /**
   * Before a connection to {@code jdbcUrl}: for SQLite's first in this JVM, points sqlite-jdbc at
   * the kept copy; any other database is left alone.
   */
  public static synchronized void prepareFor(String jdbcUrl) {
    if (jdbcUrl != null && jdbcUrl.startsWith("jdbc:sqlite:") && !prepared) {
      prepared = true;
      pointDriverAt(System.getProperty(CACHE_FOLDER));
    }
  }

  /**
   * Sets sqlite-jdbc's properties to the kept copy in {@code folder}, written if needed.
   *
   * @return whether it did: false without a folder, with either property already set, or when the
   *     copy could not be kept
   */
  static boolean pointDriverAt(String folder) {
    if (folder == null
        || folder.isBlank()
        || System.getProperty(LIB_PATH) != null
        || System.getProperty(LIB_NAME) != null) {
      return false;
    }
    try {
      Path copy = keptCopy(Path.of(folder));
      if (copy == null) {
        return false;
      }
      System.setProperty(LIB_PATH, copy.getParent().toString());
      System.setProperty(LIB_NAME, copy.getFileName().toString());
      return true;
    } catch (IOException | RuntimeException | LinkageError e) {
      LOG.debug("Cannot keep SQLite's native library in {}: {}", folder, e.toString());
      return false;
    }
  }

  /**
   * The kept copy of this platform's library in {@code folder}, written if missing or different
   * from the jar's; null when the jar has none for this platform or does not give its CRC.
   */
  static Path keptCopy(Path folder) throws IOException {
    String resourceFolder = LibraryLoaderUtil.getNativeLibResourcePath();
    String name = LibraryLoaderUtil.getNativeLibName();
    URL resource = SQLiteJDBCLoader.class.getResource(resourceFolder + "/" + name);
    if (resource == null) {
      return null; // no library for this platform in the jar: sqlite-jdbc reports it
    }
    URLConnection connection = resource.openConnection();
    long crc =
        connection instanceof JarURLConnection jar && jar.getJarEntry() != null
            ? jar.getJarEntry().getCrc()
            : -1;
    if (crc == -1) {
      return null;
    }
    String platform = resourceFolder.replaceAll("^/org/sqlite/native/", "").replace('/', '-');
    // The file keeps the library's own name: sqlite-jdbc looks for that name in its jar when the
    // copy does not load, so any other name would leave it nothing to fall back to.
    Path versionFolder =
        folder.toAbsolutePath().resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + "-" + platform);
    Path copy = versionFolder.resolve(name);
    if (Files.isRegularFile(copy) && crcOf(copy) == crc) {
      return copy;
    }
    Files.createDirectories(versionFolder);
    deleteStaleTemporaryFiles(versionFolder, name);
    Path temp = Files.createTempFile(versionFolder, "." + name, ".tmp");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
      if (crcOf(temp) != crc) {
        return null;
      }
      Files.move(temp, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
    return copy;
  }

  private static long crcOf(Path file) throws IOException {
    try (CheckedInputStream in = new CheckedInputStream(Files.newInputStream(file), new CRC32())) {
      in.transferTo(OutputStream.nullOutputStream());
      return in.getChecksum().getValue();
    }
  }

  private static void deleteStaleTemporaryFiles(Path folder, String name) throws IOException {
    FileTime before = FileTime.from(CLOCK.instant().minus(STALE));
    try (DirectoryStream<Path> temps = Files.newDirectoryStream(folder, "." + name + "*.tmp")) {
      for (Path temp : temps) {
        try {
          if (Files.getLastModifiedTime(temp).compareTo(before) < 0) {
            Files.deleteIfExists(temp);
          }
        } catch (IOException e) {
          // another JVM renamed or deleted its own temporary file meanwhile
        }
      }
    }
  }
}
