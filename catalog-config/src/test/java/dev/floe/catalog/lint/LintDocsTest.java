package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/operators/lint.md lists every rule, with its severity, and no rule that does not exist. */
class LintDocsTest {
  private static final Pattern ROW =
      Pattern.compile("(?m)^\\| `([a-z-]+)` \\| (info|warning|error) \\|");

  @Test
  void theRunbooksRuleTableMatchesTheRules() throws IOException {
    String docs =
        Files.readString(
            repositoryRoot().resolve("docs/operators/lint.md"), StandardCharsets.UTF_8);
    List<String> documented = new ArrayList<>();
    Matcher row = ROW.matcher(docs);
    while (row.find()) {
      documented.add(row.group(1) + " " + row.group(2));
    }

    assertThat(documented)
        .as("rule rows of docs/operators/lint.md")
        .containsExactlyElementsOf(
            LintRules.ALL.stream().map(r -> r.id() + " " + r.severity().text()).toList());
  }

  /** Surefire runs in the module folder; the docs live next to {@code mvnw}. */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException("Cannot find the repository root: no mvnw above the tests");
  }
}
