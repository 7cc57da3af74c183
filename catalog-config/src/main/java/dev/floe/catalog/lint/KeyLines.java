package dev.floe.catalog.lint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where each key of a YAML file is, by the key paths the manifest parsers use in their messages
 * ({@code slice.column}, {@code checks[1].row_count}). Built from SnakeYAML's node tree, which
 * keeps the position of every node (Jackson's tree does not).
 */
final class KeyLines {
  /** Aliases can make a YAML tree cyclic; no manifest nests this deep. */
  private static final int MAX_DEPTH = 64;

  /**
   * @param keyLine the line of the key (of the item, for a list item)
   * @param contentLine the first line of the value's text: the next line for a block scalar ({@code
   *     query: |})
   */
  private record Position(int keyLine, int contentLine) {}

  /** A key set twice in one mapping; YAML readers keep the last one silently. */
  record DuplicateKey(String path, int line, int firstLine) {}

  /** What SnakeYAML counts as a line break. */
  private static final Pattern LINE_BREAK = Pattern.compile("\r\n|[\r\n\u0085\u2028\u2029]");

  private final Map<String, Position> positions = new HashMap<>();
  private final Map<String, ScalarNode> scalars = new HashMap<>();
  private final List<DuplicateKey> duplicates = new ArrayList<>();
  private final List<String> file;

  private KeyLines(String text) {
    this.file = List.of(LINE_BREAK.split(text));
  }

  /**
   * @param root the first document of the file
   * @param text the file
   */
  static KeyLines of(Node root, String text) {
    KeyLines lines = new KeyLines(text);
    int rootLine = root.getStartMark().getLine() + 1;
    lines.positions.put("", new Position(rootLine, rootLine));
    lines.walk(root, "", 0);
    return lines;
  }

  /** The line of {@code path}; for a path the file lacks, the line of its nearest ancestor. */
  int line(String path) {
    return nearest(path).keyLine();
  }

  /** The first line of the text of the value at {@code path}. */
  int contentLine(String path) {
    return nearest(path).contentLine();
  }

  /**
   * The line that holds character {@code index} of the scalar value at {@code path}, whatever its
   * style ({@link ScalarLines}); the first line of the value's text when it is no scalar.
   */
  int valueLine(String path, int index) {
    ScalarNode scalar = scalars.get(path);
    return scalar == null ? contentLine(path) : ScalarLines.line(scalar, file, index);
  }

  List<DuplicateKey> duplicates() {
    return List.copyOf(duplicates);
  }

  private Position nearest(String path) {
    String current = path;
    while (true) {
      Position position = positions.get(current);
      if (position != null) {
        return position;
      }
      int cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
      current = cut < 0 ? "" : current.substring(0, cut);
    }
  }

  private void walk(Node node, String path, int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    if (node instanceof MappingNode mapping) {
      Map<String, Integer> seen = new HashMap<>();
      for (NodeTuple tuple : mapping.getValue()) {
        if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
          continue;
        }
        String key = keyNode.getValue();
        String child = path.isEmpty() ? key : path + "." + key;
        int line = keyNode.getStartMark().getLine() + 1;
        Integer first = seen.putIfAbsent(key, line);
        if (first != null) {
          duplicates.add(new DuplicateKey(child, line, first));
        }
        positions.put(child, new Position(line, contentLine(tuple.getValueNode())));
        if (tuple.getValueNode() instanceof ScalarNode scalar) {
          scalars.put(child, scalar);
        }
        walk(tuple.getValueNode(), child, depth + 1);
      }
    } else if (node instanceof SequenceNode sequence) {
      List<Node> items = sequence.getValue();
      for (int i = 0; i < items.size(); i++) {
        String child = path + "[" + i + "]";
        Node item = items.get(i);
        positions.put(child, new Position(item.getStartMark().getLine() + 1, contentLine(item)));
        walk(item, child, depth + 1);
      }
    }
  }

  private static int contentLine(Node value) {
    int line = value.getStartMark().getLine() + 1;
    if (value instanceof ScalarNode scalar
        && (scalar.getScalarStyle() == DumperOptions.ScalarStyle.LITERAL
            || scalar.getScalarStyle() == DumperOptions.ScalarStyle.FOLDED)) {
      return line + 1; // the text starts below the | or > indicator
    }
    return line;
  }
}
