package dev.floe.flink.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A Dockerfile read line by line, as far as the tests need it: instructions with their arguments
 * ({@code \} continuations joined, comments dropped), grouped into build stages by {@code FROM}.
 */
record Dockerfile(List<Stage> stages) {

  /** One instruction: {@code COPY --from=build /a /b} is keyword COPY, arguments the rest. */
  record Instruction(String keyword, String arguments, int line) {
    List<String> words() {
      return List.of(arguments.trim().split("\\s+"));
    }

    /** The value of a {@code --name=value} flag, e.g. {@code --from} or {@code --chown}. */
    Optional<String> flag(String name) {
      return words().stream()
          .filter(w -> w.startsWith("--" + name + "="))
          .map(w -> w.substring(name.length() + 3))
          .findFirst();
    }

    /** The words after the flags (for COPY: the sources, then the destination). */
    List<String> operands() {
      return words().stream().filter(w -> !w.startsWith("--")).toList();
    }
  }

  /** A stage: {@code FROM image [AS alias]} and the instructions up to the next FROM. */
  record Stage(String image, String alias, List<Instruction> instructions) {
    List<Instruction> all(String keyword) {
      return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }

    /** {@code ARG NAME=default} values declared in this stage. */
    Map<String, String> argDefaults() {
      Map<String, String> args = new LinkedHashMap<>();
      for (Instruction arg : all("ARG")) {
        String[] parts = arg.arguments().trim().split("=", 2);
        args.put(parts[0], parts.length == 2 ? parts[1] : "");
      }
      return args;
    }

    /** The tag of the image, e.g. {@code 2.1.0-scala_2.12-java17}; empty when there is none. */
    String tag() {
      int slash = image.lastIndexOf('/');
      int colon = image.indexOf(':', slash + 1);
      return colon < 0 ? "" : image.substring(colon + 1);
    }
  }

  static Dockerfile parse(Path file) {
    try {
      return parse(Files.readAllLines(file));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }

  static Dockerfile parse(List<String> lines) {
    List<Stage> stages = new ArrayList<>();
    List<Instruction> current = null;
    StringBuilder pending = new StringBuilder();
    int startLine = 0;
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      String trimmed = line.trim();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) {
        continue; // comment lines may sit inside a continued instruction, as in Docker
      }
      if (pending.isEmpty()) {
        startLine = n + 1;
      }
      boolean continues = trimmed.endsWith("\\");
      pending.append(continues ? trimmed.substring(0, trimmed.length() - 1) : trimmed).append(' ');
      if (continues) {
        continue;
      }
      String text = pending.toString().trim();
      pending.setLength(0);
      String[] parts = text.split("\\s+", 2);
      Instruction instruction =
          new Instruction(
              parts[0].toUpperCase(Locale.ROOT), parts.length == 2 ? parts[1] : "", startLine);
      if (instruction.keyword().equals("FROM")) {
        List<String> words = instruction.operands();
        String alias = words.size() == 3 && words.get(1).equalsIgnoreCase("AS") ? words.get(2) : "";
        current = new ArrayList<>();
        stages.add(new Stage(words.get(0), alias, current));
      } else if (current == null) {
        if (!instruction.keyword().equals("ARG")) {
          throw new IllegalArgumentException(
              "Cannot parse Dockerfile: line " + startLine + " comes before the first FROM");
        }
      } else {
        current.add(instruction);
      }
    }
    if (!pending.isEmpty()) {
      throw new IllegalArgumentException("Cannot parse Dockerfile: it ends inside a continuation");
    }
    return new Dockerfile(List.copyOf(stages));
  }

  Stage runtime() {
    return stages.get(stages.size() - 1);
  }

  Stage stage(String alias) {
    return stages.stream()
        .filter(s -> s.alias().equals(alias))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("Dockerfile has no stage '" + alias + "'"));
  }
}
