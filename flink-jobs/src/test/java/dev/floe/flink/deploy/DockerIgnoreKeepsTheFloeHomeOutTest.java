package dev.floe.flink.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * /.dockerignore says it is "the same as .gitignore", but Docker anchors a pattern without a slash
 * at the context root, where git matches it at any depth. The default Floe home is ./.floe in the
 * working directory, so a project one runs Floe in (cd my-project; floe run ...) holds
 * my-project/.floe with the embedded catalog and its warehouse data, and {@code COPY
 * ${PROJECT_DIR}/ /opt/floe/} bakes them into the image.
 */
class DockerIgnoreKeepsTheFloeHomeOutTest {

  @Test
  void aFloeHomeInsideTheProjectStaysOutOfTheBuildContext() {
    List<String> patterns =
        DockerFiles.read(DockerFiles.root().resolve(".dockerignore"))
            .lines()
            .map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();

    for (String path :
        List.of("examples/.floe/catalog.db", "my-project/.floe/warehouse/sales/x.parquet")) {
      assertThat(patterns).as(path).anyMatch(p -> excludes(p, path));
    }
    // The matcher itself: the root home is excluded, a module's build output too.
    assertThat(excludes(".floe", ".floe/catalog.db")).isTrue();
    assertThat(excludes("**/target", "flink-jobs/target/x.jar")).isTrue();
    assertThat(excludes(".floe", "examples/.floe/catalog.db")).isFalse();
  }

  /**
   * .dockerignore says it holds what .gitignore holds: every entry of .gitignore must exclude the
   * same paths from the build context (flink-jobs/.run/, bin/floe's jars, was once missing and
   * shipped 150 MB into every build). A name without an inner '/' is matched at any depth by git,
   * so it must be excluded at the root and below; one with an inner '/' is anchored at the root.
   */
  @Test
  void everyGitignoreEntryIsExcludedFromTheBuildContext() {
    List<String> patterns = patterns(".dockerignore");
    List<String> gitignore = patterns(".gitignore");
    assertThat(gitignore).contains("flink-jobs/.run/");

    for (String entry : gitignore) {
      String name = entry.replaceAll("^/|/$", "").replace("**", "x").replace('*', 'x');
      List<String> paths =
          name.contains("/")
              ? List.of(name + "/a.jar")
              : List.of(name + "/a.jar", "examples/" + name + "/a.jar", name);
      for (String path : paths) {
        assertThat(patterns)
            .as(".gitignore's %s: %s", entry, path)
            .anyMatch(p -> excludes(p, path));
      }
    }
  }

  private static List<String> patterns(String file) {
    return DockerFiles.read(DockerFiles.root().resolve(file))
        .lines()
        .map(String::trim)
        .filter(l -> !l.isEmpty() && !l.startsWith("#") && !l.startsWith("!"))
        .toList();
  }

  /**
   * Docker's rule (moby/patternmatcher): the pattern is matched against the whole path from the
   * context root, {@code **} spans directories, {@code *} stays within one; a match on a parent
   * directory excludes everything below it.
   */
  static boolean excludes(String pattern, String path) {
    String clean = pattern.startsWith("/") ? pattern.substring(1) : pattern;
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < clean.length(); i++) {
      char c = clean.charAt(i);
      if (c == '*' && i + 1 < clean.length() && clean.charAt(i + 1) == '*') {
        i++;
        if (i + 1 < clean.length() && clean.charAt(i + 1) == '/') {
          i++;
          regex.append("(.*/)?");
        } else {
          regex.append(".*");
        }
      } else if (c == '*') {
        regex.append("[^/]*");
      } else if (c == '?') {
        regex.append("[^/]");
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    Pattern compiled = Pattern.compile(regex.toString());
    String prefix = path;
    while (true) {
      if (compiled.matcher(prefix).matches()) {
        return true;
      }
      int slash = prefix.lastIndexOf('/');
      if (slash < 0) {
        return false;
      }
      prefix = prefix.substring(0, slash);
    }
  }
}
