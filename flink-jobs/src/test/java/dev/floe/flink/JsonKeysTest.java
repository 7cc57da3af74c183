package dev.floe.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every key Floe writes into a {@code --json} object is snake_case ({@code run_id}, {@code
 * row_count}), so that a script never has to guess a key's spelling. The Kubernetes resources that
 * {@code floe k8s} renders keep Kubernetes' own camelCase keys, and are left out; so are maps that
 * are not written as JSON (catalog properties), read from the files that neither write JSON nor
 * build the {@code Map<String, Object>} a command writes.
 */
class JsonKeysTest {
  private static final Pattern PUT =
      Pattern.compile("\\.put(?:Array|Object)?\\(\\s*\"([^\"]+)\"\\s*[,)]");

  /**
   * A key chosen by a condition: {@code put(dryRun ? "files_to_delete" : "deleted_files", ...)}.
   */
  private static final Pattern PUT_EITHER =
      Pattern.compile("\\.put\\(\\s*[\\w.()!]+\\s*\\?\\s*\"([^\"]+)\"\\s*:\\s*\"([^\"]+)\"\\s*,");

  private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");

  @Test
  void keysOfJsonOutputAreSnakeCase() {
    assertThat(MainSources.ROOTS).allMatch(Files::isDirectory);
    TreeSet<String> offending = new TreeSet<>();
    TreeSet<String> keys = new TreeSet<>();
    MainSources.javaFiles()
        .filter(file -> !file.toString().contains("/k8s/"))
        .filter(
            file ->
                Stream.of("Json.write(", "ObjectNode", "Map<String, Object>")
                    .anyMatch(MainSources.read(file)::contains))
        .forEach(
            file -> {
              List<String> found = new java.util.ArrayList<>();
              Matcher put = PUT.matcher(MainSources.read(file));
              while (put.find()) {
                found.add(put.group(1));
              }
              Matcher either = PUT_EITHER.matcher(MainSources.read(file));
              while (either.find()) {
                found.add(either.group(1));
                found.add(either.group(2));
              }
              for (String key : found) {
                keys.add(key);
                if (!SNAKE.matcher(key).matches()) {
                  offending.add(file.getFileName() + ": " + key);
                }
              }
            });
    assertThat(keys).contains("row_count", "run_id", "exit_code", "keep_last", "deleted_files");
    assertThat(offending).isEmpty();
  }
}
