package dev.floe.catalog.lint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/** Reads one file for lint: its text, its YAML tree with positions, its kind and its parse. */
final class ManifestLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** What reading a file gave. */
  sealed interface Result {}

  /** A manifest the rules can check. */
  record Loaded(LintedManifest manifest) implements Result {}

  /** A file that is not YAML at all: one {@code invalid-yaml} finding. */
  record NotYaml(Finding finding) implements Result {}

  /** A YAML file that is not a job, table or backfill manifest. */
  record NotManifest(String message) implements Result {}

  /** A file that could not be read. */
  record Unreadable(String message) implements Result {}

  private ManifestLoader() {}

  static Result load(Path path) {
    String file = path.toString();
    String text;
    try {
      // As every command reads a manifest: a 50 MB file kept SnakeYAML busy for minutes here.
      long size = Files.size(path);
      if (size > Manifests.MAX_MANIFEST_BYTES) {
        return new Unreadable(
            String.format(
                "Cannot lint %s: it is %d bytes; a manifest may be at most %d bytes",
                file, size, Manifests.MAX_MANIFEST_BYTES));
      }
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      return new Unreadable(String.format("Cannot lint %s: it is not UTF-8 text", file));
    } catch (IOException e) {
      return new Unreadable(String.format("Cannot lint %s: %s", file, Manifests.reason(e)));
    }
    Iterator<Node> documents;
    Node tree;
    JsonNode root;
    try {
      documents = new Yaml(new LoaderOptions()).composeAll(new StringReader(text)).iterator();
      tree = documents.hasNext() ? documents.next() : null;
      root = tree == null ? null : YAML.readTree(text);
    } catch (YAMLException | JsonProcessingException e) {
      return notYaml(file, e);
    }
    Optional<ManifestKind> kind = ManifestKind.of(root);
    if (kind.isEmpty()) {
      return new NotManifest(
          String.format(
              "Cannot lint %s: not a job, table or backfill manifest (expected a top-level"
                  + " job:, table: or backfill: key)",
              file));
    }
    try {
      if (documents.hasNext()) {
        int line = documents.next().getStartMark().getLine() + 1;
        return notYaml(
            file, line, "it holds a second document here; Floe reads only the first of a file");
      }
    } catch (YAMLException e) {
      return notYaml(file, e);
    }
    List<SpecParsing.Dropped> drop = new ArrayList<>();
    if (kind.get() != ManifestKind.BACKFILL) {
      KnownKeys.unknown(kind.get(), root)
          .forEach(u -> drop.add(new SpecParsing.Dropped(u.parent(), u.key())));
    }
    SpecParsing.Outcome parsed = SpecParsing.parse(kind.get(), path, file, text, drop);
    return new Loaded(
        new LintedManifest(
            path,
            file,
            kind.get(),
            root,
            spelled(file, text),
            KeyLines.of(tree, text),
            parsed.spec(),
            parsed.refusal()));
  }

  /** The file's tree as the parsers read it, or null when they refuse the file's YAML. */
  private static ManifestNode spelled(String file, String text) {
    try {
      return Manifests.parse(file, text);
    } catch (InvalidInputException e) {
      return null;
    }
  }

  private static Result notYaml(String file, Exception e) {
    if (e instanceof MarkedYAMLException marked) {
      int line = marked.getProblemMark() != null ? marked.getProblemMark().getLine() + 1 : 1;
      return notYaml(file, line, describe(marked));
    }
    return notYaml(file, 1, firstLine(e.getMessage()));
  }

  private static Result notYaml(String file, int line, String problem) {
    return new NotYaml(
        new Finding(
            file,
            line,
            LintRules.INVALID_YAML.severity(),
            LintRules.INVALID_YAML.id(),
            "Cannot read the file as YAML: " + problem,
            ""));
  }

  /**
   * What SnakeYAML found wrong, without the source line it quotes under its message: that line may
   * hold a value that must never reach a log (a token in a header).
   */
  private static String describe(MarkedYAMLException e) {
    return Stream.of(e.getContext(), e.getProblem())
        .filter(Objects::nonNull)
        .collect(Collectors.joining(": "));
  }

  private static String firstLine(String message) {
    return message == null ? "unreadable" : message.lines().findFirst().orElse("").strip();
  }
}
