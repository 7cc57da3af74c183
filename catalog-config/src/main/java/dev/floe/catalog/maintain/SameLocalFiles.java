package dev.floe.catalog.maintain;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.io.FileIO;

/**
 * Finds listed files that are referenced under another spelling: through a symbolic link (a {@code
 * write.data.path} over a linked directory) or any other path the local file system resolves to the
 * same file. Compares real paths ({@link Path#toRealPath}), so it applies only to local files read
 * through Hadoop's FileIO ({@link LocalListing#localPath}).
 */
final class SameLocalFiles {
  private SameLocalFiles() {}

  /**
   * The {@code candidates} (listed locations no reference matched as a string) whose real path is
   * the real path of one of {@code references} (referenced locations no listed file matched).
   * Resolves nothing when there are no local candidates.
   *
   * @throws InvalidInputException (exit 2) when a path cannot be resolved for another reason than
   *     being absent (a link loop, no permission): then a referenced file cannot be told apart from
   *     an orphan, so nothing may be deleted
   */
  static Set<String> referencedAmong(
      FileIO io, Collection<String> candidates, Collection<String> references) {
    List<String> local =
        candidates.stream().filter(c -> LocalListing.localPath(io, c).isPresent()).toList();
    Set<String> same = new HashSet<>();
    if (local.isEmpty()) {
      return same;
    }
    Set<Path> referenced = new HashSet<>();
    for (String reference : references) {
      realPath(io, reference).ifPresent(referenced::add);
    }
    for (String candidate : local) {
      realPath(io, candidate).filter(referenced::contains).ifPresent(real -> same.add(candidate));
    }
    return same;
  }

  private static Optional<Path> realPath(FileIO io, String location) {
    Optional<Path> path = LocalListing.localPath(io, location);
    if (path.isEmpty()) {
      return path;
    }
    try {
      return Optional.of(path.get().toRealPath());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw InvalidInputException.of(
          "Cannot tell referenced files from orphans: the real path of %s cannot be resolved"
              + " (%s); nothing is deleted",
          location, e.toString());
    }
  }
}
