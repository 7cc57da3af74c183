package dev.floe.catalog.manifest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Reads YAML manifests (table specs, job manifests, backfill manifests, floe.yaml) into strict
 * {@link ManifestNode}s. This is the only place Floe reads YAML it did not write, so what YAML
 * allows but a manifest must not rely on is refused here, once, for every kind of manifest: a file
 * over {@link #MAX_MANIFEST_BYTES}, bytes that are not UTF-8, a key given twice in one mapping
 * (YAML readers silently keep the last one), anchors and aliases (Jackson reads an alias as the
 * anchor's name, and expanding them invites alias bombs), explicit tags ({@code !env NAME} would be
 * read as the text {@code NAME}, its tag silently dropped) and a second YAML document.
 */
public final class Manifests {
  /**
   * The largest manifest Floe reads, in bytes (1 MiB). Real manifests are a few kilobytes; the
   * limit is checked before a byte is read, so a huge or endless file fails at once.
   */
  public static final int MAX_MANIFEST_BYTES = 1024 * 1024;

  private static final YAMLFactory FACTORY = new YAMLFactory();
  private static final ObjectMapper YAML = new ObjectMapper(FACTORY);

  private Manifests() {}

  /** A file's text and its root node; the text is kept because the run key hashes it. */
  public record Loaded(String source, String text, ManifestNode root) {}

  /** Loads a manifest whose kind is not known yet (it is read to find out). */
  public static Loaded load(Path file) {
    return load(file, "manifest");
  }

  /**
   * @param file the manifest
   * @param kind what the file is, for messages: {@code job manifest}, {@code table spec}, ...
   * @throws InvalidInputException when the file is missing, too large, not UTF-8 or not a strict
   *     YAML mapping
   */
  public static Loaded load(Path file, String kind) {
    String text = decode(file, kind, read(file, kind));
    return new Loaded(file.toString(), text, parse(file.toString(), text));
  }

  public static ManifestNode parse(String source, String text) {
    JsonNode node;
    Map<String, String> scalars;
    try {
      scalars = requireStrictYaml(source, text);
      node = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw InvalidInputException.of("Cannot read %s: not valid YAML: %s", source, problem(e));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a String: not expected
    }
    if (node == null || !node.isObject()) {
      throw InvalidInputException.of("Cannot read %s: expected a YAML mapping at the top", source);
    }
    return new ManifestNode(source, node, scalars);
  }

  /** The file's bytes, refused before reading when there are more than the limit. */
  private static byte[] read(Path file, String kind) {
    if (Files.isDirectory(file)) {
      throw InvalidInputException.of("Cannot read %s %s: it is a folder, not a file", kind, file);
    }
    try {
      long size = Files.size(file);
      if (size > MAX_MANIFEST_BYTES) {
        throw tooLarge(file, kind, String.valueOf(size));
      }
      try (InputStream in = Files.newInputStream(file)) {
        // A file that grew since, or a pipe whose size is unknown, is still cut at the limit.
        byte[] bytes = in.readNBytes(MAX_MANIFEST_BYTES + 1);
        if (bytes.length > MAX_MANIFEST_BYTES) {
          throw tooLarge(file, kind, "more than " + MAX_MANIFEST_BYTES);
        }
        return bytes;
      }
    } catch (IOException e) {
      throw new InvalidInputException("Cannot read " + kind + " " + file + ": " + reason(e), e);
    }
  }

  /**
   * Why a file could not be read, for a message that already names it: {@code no such file}, {@code
   * permission denied}, the system's reason ({@code not a directory}). A {@link
   * FileSystemException}'s own message is only the path when it has no reason (an {@link
   * AccessDeniedException} read {@code Cannot read manifest daily.yaml: daily.yaml}).
   */
  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "a part of its path is not a folder";
    }
    if (e instanceof FileSystemException fs) {
      String reason = fs.getReason();
      return reason == null || reason.isBlank()
          ? e.getClass().getSimpleName()
          : Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static InvalidInputException tooLarge(Path file, String kind, String size) {
    return InvalidInputException.of(
        "Cannot read %s %s: it is %s bytes; a manifest may be at most %d bytes",
        kind, file, size, MAX_MANIFEST_BYTES);
  }

  /** Strict UTF-8: the first byte that is not UTF-8 is named with its offset and line. */
  private static String decode(Path file, String kind, byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length); // UTF-8 never has fewer bytes than chars
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      int offset = in.position();
      int line = 1;
      for (int i = 0; i < offset; i++) {
        line += bytes[i] == '\n' ? 1 : 0;
      }
      throw InvalidInputException.of(
          "Cannot read %s %s: it is not valid UTF-8 (byte 0x%02X at offset %d, line %d); save it"
              + " as UTF-8",
          kind, file, bytes[offset] & 0xFF, offset, line);
    }
    return out.flip().toString();
  }

  /**
   * Walks the YAML's tokens once before it is read into a tree, refusing what the tree would hide:
   * a key given twice in one mapping (the tree keeps the last), an anchor or alias, an explicit tag
   * (the tree drops it) and a second document (the tree keeps the first). Returns every scalar's
   * text as spelled, by JSON pointer.
   */
  private static Map<String, String> requireStrictYaml(String source, String text)
      throws IOException {
    Map<String, String> scalars = new HashMap<>();
    try (JsonParser parser = FACTORY.createParser(text)) {
      YAMLParser yaml = (YAMLParser) parser;
      Deque<Map<String, Integer>> mappings = new ArrayDeque<>(); // key -> line, per open mapping
      int depth = 0;
      boolean seenDocument = false;
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        int line = parser.currentTokenLocation().getLineNr();
        if (yaml.isCurrentAlias()) {
          throw anchorsRefused(source, line, "uses the YAML alias *" + parser.getText());
        }
        if (yaml.getObjectId() != null) {
          throw anchorsRefused(source, line, "declares the YAML anchor &" + yaml.getObjectId());
        }
        String tag = yaml.getTypeId();
        if (tag != null) {
          throw tagRefused(source, parser.getParsingContext(), token, line, tag);
        }
        if (depth == 0) {
          if (seenDocument && token != JsonToken.VALUE_NULL) {
            throw InvalidInputException.of(
                "Cannot read %s: a second YAML document starts on line %d; a manifest holds one",
                source, line);
          }
          seenDocument = true;
        }
        switch (token) {
          case START_OBJECT -> {
            mappings.push(new HashMap<>());
            depth++;
          }
          case START_ARRAY -> depth++;
          case END_OBJECT -> {
            mappings.pop();
            depth--;
          }
          case END_ARRAY -> depth--;
          case FIELD_NAME -> {
            Integer first = mappings.getFirst().putIfAbsent(parser.currentName(), line);
            if (first != null) {
              throw duplicateKey(source, parser.getParsingContext(), first, line);
            }
          }
          case VALUE_STRING, VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE ->
              scalars.put(parser.getParsingContext().pathAsPointer().toString(), parser.getText());
          default -> {}
        }
      }
    }
    // Jackson does not report the tag of a mapping's first key (`!env FOO: x` read as FOO):
    // SnakeYAML's events carry every explicit tag.
    for (Event event : new Yaml(new LoaderOptions()).parse(new StringReader(text))) {
      String tag =
          event instanceof ScalarEvent scalar
              ? scalar.getTag()
              : event instanceof CollectionStartEvent collection ? collection.getTag() : null;
      if (tag != null) {
        throw InvalidInputException.of(
            "Cannot read %s: line %d uses the YAML tag %s; tags (!) are not supported in"
                + " manifests, write the value out (quote it to keep it as text)",
            source, event.getStartMark().getLine() + 1, Shown.value(shownTag(tag)));
      }
    }
    return scalars;
  }

  /** A tag as written: {@code !env}, or {@code !!str} for a standard one (resolved by parsers). */
  private static String shownTag(String tag) {
    return tag.startsWith(STANDARD_TAGS)
        ? "!!" + tag.substring(STANDARD_TAGS.length())
        : tag.startsWith("!") ? tag : "!" + tag;
  }

  private static InvalidInputException anchorsRefused(String source, int line, String what) {
    return InvalidInputException.of(
        "Cannot read %s: line %d %s; anchors (&) and aliases (*) are not supported in manifests,"
            + " write the value out",
        source, line, what);
  }

  /**
   * An explicit tag, local ({@code !env}, {@code !include}) or standard ({@code !!str}, {@code
   * !!int}): Floe reads no tag, and a standard one adds nothing now that every value Floe uses as
   * text is read as spelled, so every tag is refused, as anchors are, rather than dropped.
   */
  private static InvalidInputException tagRefused(
      String source, JsonStreamContext context, JsonToken token, int line, String typeId) {
    // Jackson gives the tag without its leading '!'s, and a standard one resolved.
    String tag = shownTag(typeId);
    String path =
        token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY
            ? pathThrough(context.getParent())
            : pathThrough(context);
    String where = path.isEmpty() ? source : source + " at '" + path + "'";
    return InvalidInputException.of(
        "Cannot read %s: line %d uses the YAML tag %s; tags (!) are not supported in manifests,"
            + " write the value out (quote it to keep it as text)",
        where, line, Shown.value(tag));
  }

  private static final String STANDARD_TAGS = "tag:yaml.org,2002:";

  private static InvalidInputException duplicateKey(
      String source, JsonStreamContext mapping, int firstLine, int line) {
    String path = pathOf(mapping);
    String where = path.isEmpty() ? source : source + " at '" + path + "'";
    String lines = firstLine == line ? "twice on line " + line : "twice, on lines " + firstLine;
    return InvalidInputException.of(
        "Cannot read %s: key '%s' appears %s%s; a key may appear once per mapping",
        where, mapping.getCurrentName(), lines, firstLine == line ? "" : " and " + line);
  }

  /** The key path of a mapping, as {@link ManifestNode#path()} writes it: checks[1].row_count. */
  private static String pathOf(JsonStreamContext mapping) {
    return pathThrough(mapping.getParent());
  }

  /** The key path to the current entry of {@code innermost}, through its outer ones. */
  private static String pathThrough(JsonStreamContext innermost) {
    List<JsonStreamContext> outer = new ArrayList<>();
    for (JsonStreamContext c = innermost; c != null && !c.inRoot(); c = c.getParent()) {
      outer.add(0, c);
    }
    StringBuilder path = new StringBuilder();
    for (JsonStreamContext c : outer) {
      if (c.inArray()) {
        path.append('[').append(c.getCurrentIndex()).append(']');
      } else {
        path.append(path.length() == 0 ? "" : ".").append(c.getCurrentName());
      }
    }
    return path.toString();
  }

  /**
   * What the parser found wrong and where, without the source line SnakeYAML quotes under its
   * message: that line may hold a value that must never reach a log (a password in floe.yaml).
   */
  private static String problem(JsonProcessingException e) {
    String problem;
    if (e.getCause() instanceof MarkedYAMLException marked) {
      problem =
          Stream.of(marked.getContext(), marked.getProblem())
              .filter(Objects::nonNull)
              .collect(Collectors.joining(": "));
      // The problem's own mark: the context mark is where the construct it broke began (a tab
      // indenting line 4 was reported on line 3), and floe lint names the problem's line too.
      Mark mark =
          marked.getProblemMark() != null ? marked.getProblemMark() : marked.getContextMark();
      if (mark != null) {
        return problem
            + " (line "
            + (mark.getLine() + 1)
            + ", column "
            + (mark.getColumn() + 1)
            + ")";
      }
    } else {
      problem = e.getOriginalMessage().lines().findFirst().orElse("").strip();
    }
    JsonLocation where = e.getLocation();
    return where == null || where.getLineNr() < 1
        ? problem
        : problem + " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
  }
}
