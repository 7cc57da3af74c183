package dev.floe.catalog.lint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** The files a lint run reads: the files it was given, and the YAML files under its folders. */
final class ManifestFiles {

  /**
   * @param file a file to lint
   * @param named true when it was given by name: then it must be a manifest; a YAML file found in a
   *     folder that is no manifest (floe.yaml, a Compose file) is skipped
   */
  record Candidate(Path file, boolean named) {}

  /** The candidates, and a message for each path that could not be read. */
  record Collected(List<Candidate> candidates, List<String> problems) {}

  private ManifestFiles() {}

  static Collected collect(List<Path> paths) {
    List<Candidate> candidates = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try {
          yamlFilesUnder(path).forEach(file -> candidates.add(new Candidate(file, false)));
        } catch (IOException | UncheckedIOException e) {
          problems.add(String.format("Cannot lint %s: %s", path, e.getMessage()));
        }
      } else if (Files.isRegularFile(path)) {
        candidates.add(new Candidate(path, true));
      } else if (Files.exists(path)) {
        problems.add(String.format("Cannot lint %s: not a file or a folder", path));
      } else {
        problems.add(String.format("Cannot lint %s: no such file or folder", path));
      }
    }
    return new Collected(candidates, problems);
  }

  /**
   * The *.yaml and *.yml files under {@code folder}, sorted; hidden folders (.git, .floe) skipped.
   */
  private static List<Path> yamlFilesUnder(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> isYaml(file) && !inHiddenFolder(folder, file))
          .sorted()
          .toList();
    }
  }

  private static boolean isYaml(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  private static boolean inHiddenFolder(Path folder, Path file) {
    for (Path part : folder.relativize(file.getParent() == null ? file : file.getParent())) {
      if (part.toString().startsWith(".") && !part.toString().equals("..")) {
        return true;
      }
    }
    return false;
  }
}
