package dev.floe.catalog.config;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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

  private HomeLocation() {}

  /**
   * Records {@code home}'s path in a new home (or in one made before the marker existed), and
   * refuses a home whose record names another path.
   *
   * @throws InvalidInputException when the home was moved or copied from another path
   */
  static void require(Path home) {
    Path marker = home.resolve(MARKER);
    String here = canonical(home);
    try {
      if (!Files.exists(marker)) {
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

  private static String canonical(Path home) {
    try {
      return home.toRealPath().toString();
    } catch (IOException e) {
      return home.toAbsolutePath().normalize().toString();
    }
  }
}
