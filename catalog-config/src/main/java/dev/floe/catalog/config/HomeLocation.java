package dev.floe.catalog.config;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps an embedded home from being used where it was not made. The embedded catalog stores
 * absolute {@code file:} locations (its SQLite rows point at metadata files, the metadata at data
 * files), so a home that was moved or copied still points at the original's warehouse: a command
 * run on a copy would write its new metadata into the original's tables, and the original would
 * later count that file as its own orphan. The home therefore records where it was made ({@value
 * #MARKER}), and Floe refuses to open it anywhere else, naming both paths.
 */
final class HomeLocation {
  static final String MARKER = "home-location";
  private static final String CATALOG_DATABASE = "catalog.db";

  private HomeLocation() {}

  /**
   * Records {@code home}'s path in a new home (or in one made before the marker existed, when its
   * tables lie inside it), and refuses a home whose record names another path.
   *
   * @throws InvalidInputException when the home was moved or copied from another path, or holds no
   *     record and its catalog's tables lie elsewhere
   */
  static void require(Path home, Path warehouse) {
    Path marker = home.resolve(MARKER);
    String here = canonical(home);
    try {
      if (!Files.exists(marker)) {
        requireOwnTables(home, here, warehouse);
        // Written aside and moved into place, so a process starting at the same moment never
        // reads half of it.
        Path written = Files.createTempFile(home, MARKER, ".tmp");
        Files.writeString(written, here + "\n", StandardCharsets.UTF_8);
        Files.move(
            written,
            marker,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return;
      }
      String made = Files.readString(marker, StandardCharsets.UTF_8).trim();
      if (!made.equals(here)) {
        throw InvalidInputException.of(
            "Cannot open the Floe home %s: it was made at %s and its catalog points at the"
                + " tables there (a moved or copied home would write into them); open it at %s, or"
                + " make a new home and recreate the tables with `floe tables apply`",
            here, made, made);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + marker, e);
    }
  }

  /**
   * A home without the record (made before it existed, or a new one) is adopted only when every
   * table of its catalog lies inside it: a copy of an old home, which has no record either, points
   * at the original's tables, and writing its record would have let it write into them.
   */
  private static void requireOwnTables(Path home, String here, Path warehouse) {
    Path database = home.resolve(CATALOG_DATABASE);
    if (!Files.isRegularFile(database)) {
      return; // a new home
    }
    // The home, and a warehouse of its own the configuration names (catalog.properties), by the
    // real paths of both: a home reached through a link has its tables under the link's spelling.
    List<Path> insides = new ArrayList<>(List.of(Path.of(here)));
    if (warehouse != null) {
      insides.add(real(warehouse));
    }
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + database.toAbsolutePath());
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT table_namespace, table_name, metadata_location FROM iceberg_tables")) {
      while (rows.next()) {
        Optional<Path> local =
            Optional.ofNullable(Catalogs.localPath(rows.getString(3))).map(HomeLocation::real);
        if (local.isPresent() && insides.stream().noneMatch(local.get()::startsWith)) {
          throw InvalidInputException.of(
              "Cannot open the Floe home %s: it holds no record of where it was made (a home"
                  + " made before Floe kept one), and the catalog's table %s.%s keeps its"
                  + " metadata outside it, at %s (a copied or moved home would write into the"
                  + " tables there); open the home where its tables are, or make a new home and"
                  + " recreate the tables with `floe tables apply`",
              here, rows.getString(1), rows.getString(2), local.get());
        }
      }
    } catch (SQLException e) {
      // No iceberg_tables table yet (a catalog that never held a table), or not Iceberg's: the
      // catalog itself reports what is wrong when it opens.
    }
  }

  /** The real path of {@code path}, or of its nearest existing folder with the rest appended. */
  private static Path real(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    for (Path existing = absolute; existing != null; existing = existing.getParent()) {
      try {
        return existing.toRealPath().resolve(existing.relativize(absolute));
      } catch (IOException e) {
        // not there (yet): try its folder
      }
    }
    return absolute;
  }

  private static String canonical(Path home) {
    try {
      return home.toRealPath().toString();
    } catch (IOException e) {
      return home.toAbsolutePath().normalize().toString();
    }
  }
}
