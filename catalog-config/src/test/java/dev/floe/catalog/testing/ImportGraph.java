package dev.floe.catalog.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package import graph of one module's main sources, read from the source files (imports and
 * fully qualified names), for tests that keep the layering from regressing: no package cycles, and
 * no import of a module or library a module must not see.
 */
public final class ImportGraph {
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
  private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?([\\w.]+);");

  private final String base;

  /** Package (below base) to the packages (below base) it uses, with one example use each. */
  private final Map<String, Map<String, String>> uses = new TreeMap<>();

  /** Every import of every file: file to the imported names. */
  private final Map<String, List<String>> imports = new TreeMap<>();

  private ImportGraph(String base) {
    this.base = base;
  }

  /**
   * @param sources a module's {@code src/main/java}
   * @param base the module's root package, e.g. {@code dev.floe.catalog}
   */
  public static ImportGraph of(Path sources, String base) {
    ImportGraph graph = new ImportGraph(base);
    Pattern qualified = Pattern.compile("\\b" + Pattern.quote(base) + "\\.([a-z][\\w.]*?)\\.[A-Z]");
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Matcher pkg = PACKAGE.matcher(text);
        if (!pkg.find() || !pkg.group(1).startsWith(base)) {
          continue;
        }
        String own = relative(pkg.group(1), base);
        String name = file.getFileName().toString();
        Matcher imported = IMPORT.matcher(text);
        List<String> names = new ArrayList<>();
        while (imported.find()) {
          names.add(imported.group(1));
        }
        graph.imports.put(sources.relativize(file).toString(), names);
        Matcher use = qualified.matcher(text);
        while (use.find()) {
          String other = use.group(1);
          if (!other.equals(own)) {
            graph.uses.computeIfAbsent(own, k -> new TreeMap<>()).putIfAbsent(other, name);
          }
        }
        graph.uses.computeIfAbsent(own, k -> new TreeMap<>());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return graph;
  }

  private static String relative(String pkg, String base) {
    return pkg.equals(base) ? "" : pkg.substring(base.length() + 1);
  }

  /** Each package cycle, as its packages with one example edge each; empty when none. */
  public List<String> cycles() {
    List<String> cycles = new ArrayList<>();
    for (Set<String> component : stronglyConnected()) {
      if (component.size() < 2) {
        continue;
      }
      StringBuilder text = new StringBuilder(String.join(", ", component)).append(":");
      for (String from : component) {
        uses.getOrDefault(from, Map.of())
            .forEach(
                (to, file) -> {
                  if (component.contains(to)) {
                    text.append(' ')
                        .append(from)
                        .append("->")
                        .append(to)
                        .append(" (")
                        .append(file)
                        .append(')');
                  }
                });
      }
      cycles.add(text.toString());
    }
    return cycles;
  }

  /** The files that import a name starting with one of {@code prefixes}, with the name. */
  public List<String> importsOf(String... prefixes) {
    List<String> found = new ArrayList<>();
    imports.forEach(
        (file, names) -> {
          for (String name : names) {
            for (String prefix : prefixes) {
              if (name.startsWith(prefix)) {
                found.add(file + " imports " + name);
              }
            }
          }
        });
    return found;
  }

  /** The packages of {@link #base} the graph holds, e.g. {@code commit}. */
  public Set<String> packages() {
    return new TreeSet<>(uses.keySet());
  }

  // Tarjan's algorithm, iterative enough for a few dozen packages.
  private List<Set<String>> stronglyConnected() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> components = new ArrayList<>();
    int[] counter = {0};
    for (String v : uses.keySet()) {
      if (!index.containsKey(v)) {
        connect(v, index, low, stack, onStack, components, counter);
      }
    }
    return components;
  }

  private void connect(
      String v,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<Set<String>> components,
      int[] counter) {
    index.put(v, counter[0]);
    low.put(v, counter[0]++);
    stack.push(v);
    onStack.add(v);
    for (String w : uses.getOrDefault(v, Map.of()).keySet()) {
      if (!index.containsKey(w)) {
        connect(w, index, low, stack, onStack, components, counter);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      components.add(component);
    }
  }

  @Override
  public String toString() {
    return base + " " + uses;
  }
}
