package dev.floe.catalog.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Sets up a SQLite catalog database's tables once, under a lock every Floe process takes.
 *
 * <p>Iceberg's JdbcCatalog creates its tables, and for schema version V1 adds a column, whenever it
 * opens a database that lacks them, outside any transaction and lock: two processes opening a new
 * home at once (two quickstarts, a run and a {@code tables apply}) both do it, and one fails with
 * "duplicate column name: iceberg_type". So the first open of a database happens under an exclusive
 * lock on {@code <database>.init-lock}, and a file {@code <database>.ready} written after it tells
 * later processes that the tables exist; they take no lock. A marker left beside a deleted database
 * is removed under the lock before the database is made again. Opening a database that is set up is
 * unchanged.
 *
 * <p>Nothing here fails a command that worked without it: where the lock file cannot be written (a
 * read-only home), the catalog opens as Iceberg opens it.
 */
final class SqliteCatalogInit {
  private static final String PREFIX = "jdbc:sqlite:";

  /** The databases this JVM has seen set up (one lock per JVM and file: none is re-entered). */
  private static final Set<Path> READY = ConcurrentHashMap.newKeySet();

  private SqliteCatalogInit() {}

  /**
   * Makes sure the SQLite database {@code config} names (if it names one) has the catalog's tables
   * before the catalog opens; does nothing for any other catalog.
   */
  static void ensure(CatalogConfig config) {
    Path database = database(config.properties().get("uri"));
    if (database == null || READY.contains(database)) {
      return;
    }
    synchronized (SqliteCatalogInit.class) {
      if (READY.contains(database) || isReady(database)) {
        READY.add(database);
        return;
      }
      Path lockFile = sibling(database, ".init-lock");
      try (FileChannel channel =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        if (!Files.exists(database)) {
          // A marker left by a database that was deleted: gone before this process's connection
          // makes the new file, so no process ever sees the new database beside the old marker.
          Files.deleteIfExists(sibling(database, ".ready"));
        }
        if (!isReady(database)) {
          Catalog catalog =
              CatalogUtil.buildIcebergCatalog(
                  config.name(), Catalogs.icebergProperties(config), HadoopConfs.defaults());
          Catalogs.close(catalog);
          Files.write(sibling(database, ".ready"), new byte[0]);
        }
      } catch (IOException e) {
        // A home this user cannot write: nothing to set up that its catalog could keep.
        return;
      }
      READY.add(database);
    }
  }

  private static boolean isReady(Path database) {
    return Files.exists(database) && Files.exists(sibling(database, ".ready"));
  }

  private static Path sibling(Path database, String suffix) {
    return database.resolveSibling(database.getFileName() + suffix);
  }

  /** The database file of a {@code jdbc:sqlite:<path>} URI whose folder exists; else null. */
  static Path database(String uri) {
    Path file = file(uri);
    Path parent = file == null ? null : file.getParent();
    return parent != null && Files.isDirectory(parent) ? file : null;
  }

  /**
   * The database file a {@code jdbc:sqlite:<path>} URI names, as SQLite's driver reads it (the
   * prefix in any case; a {@code file:} URI name with its {@code %XX} escapes decoded and an empty
   * or {@code localhost} authority); null for a database in memory ({@code :memory:}, {@code
   * mode=memory}) or another URI.
   */
  static Path file(String uri) {
    if (uri == null || !uri.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      return null;
    }
    String path = uri.substring(PREFIX.length());
    int query = path.indexOf('?');
    if (query >= 0) {
      for (String parameter : path.substring(query + 1).split("&")) {
        if (parameter.equalsIgnoreCase("mode=memory")) {
          return null; // not journal_mode=memory, whose database is on disk
        }
      }
      path = path.substring(0, query);
    }
    if (path.startsWith("file:")) {
      path = path.substring("file:".length());
      if (path.startsWith("//")) {
        int slash = path.indexOf('/', 2);
        String host = slash < 0 ? path.substring(2) : path.substring(2, slash);
        if (!host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
          return null; // another host: the driver refuses it
        }
        path = slash < 0 ? "" : path.substring(slash);
      }
      try {
        path = java.net.URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null; // a broken escape: the driver reports it
      }
    }
    if (path.isEmpty() || path.startsWith(":")) {
      return null; // in memory: no other process shares it
    }
    try {
      return Path.of(path).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      return null; // not a path: the driver reports it
    }
  }
}
