package dev.floe.catalog.spec;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.manifest.YamlFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Loads table specs from one file or from every {@code *.yaml} / {@code *.yml} in a directory. */
public final class TableSpecLoader {

  private TableSpecLoader() {}

  /**
   * Loads the spec in {@code path}, or, when it is a directory, the specs of its {@code *.yaml} and
   * {@code *.yml} files in any case (not recursive), in file-name order so plans are stable. A link
   * among them that leads nowhere is read, and so refused, not skipped.
   *
   * @throws InvalidInputException when a file is missing or invalid, a directory holds no spec, or
   *     two specs declare the same table
   */
  public static List<TableSpec> load(Path path) {
    List<Path> files = Files.isDirectory(path) ? specFiles(path) : List.of(path);
    List<TableSpec> specs = new ArrayList<>();
    Map<String, String> sourceByTable = new HashMap<>();
    for (Path file : files) {
      TableSpec spec = TableSpecParser.parse(Manifests.load(file, "table spec").root());
      String earlier = sourceByTable.putIfAbsent(spec.table(), spec.source());
      if (earlier != null) {
        throw InvalidInputException.of(
            "Cannot read %s: table %s is already declared in %s", file, spec.table(), earlier);
      }
      specs.add(spec);
    }
    return specs;
  }

  private static List<Path> specFiles(Path directory) {
    List<Path> files;
    try (Stream<Path> entries = Files.list(directory)) {
      files =
          entries
              .filter(YamlFiles::isYaml)
              .filter(file -> !Files.isDirectory(file))
              .sorted()
              .toList();
    } catch (IOException e) {
      throw new InvalidInputException("Cannot read " + directory + ": " + Manifests.reason(e), e);
    }
    if (files.isEmpty()) {
      throw InvalidInputException.of(
          "Cannot read %s: the directory holds no *.yaml or *.yml table spec", directory);
    }
    return files;
  }
}
