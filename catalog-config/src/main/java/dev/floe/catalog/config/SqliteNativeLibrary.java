package dev.floe.catalog.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Lets the embedded catalog's driver load SQLite's native library from a copy kept in a folder
 * bin/floe owns ({@value #CACHE_FOLDER}), instead of the copy sqlite-jdbc writes to the temporary
 * folder, and checks, in every JVM: 0.1–0.2 s of every command on the embedded catalog.
 *
 * <p>The copy is named by sqlite-jdbc's version and the library's platform folder, written to a
 * temporary file and renamed into place, and written again when its size differs from the library's
 * in the jar. Nothing here can fail a command: without the property, with the property already set
 * by the user ({@code org.sqlite.lib.path}), or when the folder cannot be written, sqlite-jdbc
 * loads its library as it always did; a copy that does not load makes it fall back the same way.
 */
final class SqliteNativeLibrary {
  /** System property: the folder to keep the copy in (bin/floe sets it); unset: no copy. */
  static final String CACHE_FOLDER = "floe.native-cache";

  /** sqlite-jdbc's own properties: load {@code <path>/<name>} before extracting anything. */
  static final String LIB_PATH = "org.sqlite.lib.path";

  static final String LIB_NAME = "org.sqlite.lib.name";

  private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);

  private static boolean prepared;

  private SqliteNativeLibrary() {}

  /** Once per JVM, before the first SQLite connection: points sqlite-jdbc at the kept copy. */
  static synchronized void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    String folder = System.getProperty(CACHE_FOLDER);
    if (folder == null || folder.isBlank() || System.getProperty(LIB_PATH) != null) {
      return;
    }
    try {
      Path copy = keptCopy(Path.of(folder));
      if (copy != null) {
        System.setProperty(LIB_PATH, copy.getParent().toString());
        System.setProperty(LIB_NAME, copy.getFileName().toString());
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot keep SQLite's native library in {}: {}", folder, e.toString());
    }
  }

  /** The kept copy of this platform's library in {@code folder}, written if needed; else null. */
  static Path keptCopy(Path folder) throws IOException {
    String resourceFolder = LibraryLoaderUtil.getNativeLibResourcePath();
    String name = LibraryLoaderUtil.getNativeLibName();
    URL resource = SQLiteJDBCLoader.class.getResource(resourceFolder + "/" + name);
    if (resource == null) {
      return null; // no library for this platform in the jar: sqlite-jdbc reports it
    }
    URLConnection connection = resource.openConnection();
    long size = connection.getContentLengthLong();
    String platform = resourceFolder.replaceAll("^/org/sqlite/native/", "").replace('/', '-');
    // The file keeps the library's own name: sqlite-jdbc looks for that name in its jar when the
    // copy does not load, so any other name would leave it nothing to fall back to.
    Path versionFolder =
        folder.toAbsolutePath().resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + "-" + platform);
    Path copy = versionFolder.resolve(name);
    if (size > 0 && Files.isRegularFile(copy) && Files.size(copy) == size) {
      return copy;
    }
    Files.createDirectories(versionFolder);
    Path temp = Files.createTempFile(versionFolder, "." + name, ".tmp");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(temp, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
    return copy;
  }
}
