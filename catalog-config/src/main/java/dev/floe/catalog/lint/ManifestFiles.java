package dev.floe.catalog.lint;

import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.manifest.YamlFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * The candidates under or at {@code paths}, in order, each file once however many paths reach it
   * ({@code jobs/a.yaml ./jobs/a.yaml jobs}), as the first path names it.
   */
  static Collected collect(List<Path> paths) {
    Map<Path, Candidate> candidates = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try {
          yamlFilesUnder(path).forEach(file -> add(candidates, new Candidate(file, false)));
        } catch (IOException e) {
          problems.add(String.format("Cannot lint %s: %s", path, Manifests.reason(e)));
        } catch (UncheckedIOException e) {
          problems.add(String.format("Cannot lint %s: %s", path, Manifests.reason(e.getCause())));
        }
      } else if (Files.isRegularFile(path)) {
        add(candidates, new Candidate(path, true));
      } else if (Files.exists(path)) {
        problems.add(String.format("Cannot lint %s: not a file or a folder", path));
      } else {
        problems.add(String.format("Cannot lint %s: no such file or folder", path));
      }
    }
    return new Collected(List.copyOf(candidates.values()), problems);
  }

  /**
   * Adds {@code candidate} unless its file is there already; named on the command line by either
   * path, it must be a manifest.
   */
  private static void add(Map<Path, Candidate> candidates, Candidate candidate) {
    Path key = identity(candidate.file());
    Candidate first = candidates.putIfAbsent(key, candidate);
    if (first != null && candidate.named() && !first.named()) {
      candidates.put(key, new Candidate(first.file(), true));
    }
  }

  /** The file itself, through any symbolic link ({@code current/a.yaml -> jobs/a.yaml}). */
  private static Path identity(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      return file.toAbsolutePath().normalize(); // read and reported as it is
    }
  }

  /**
   * The *.yaml and *.yml files under {@code folder}, sorted; hidden folders (.git, .floe) skipped.
   */
  private static List<Path> yamlFilesUnder(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> YamlFiles.isYaml(file) && !inHiddenFolder(folder, file))
          .sorted()
          .toList();
    }
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
