package dev.floe.catalog.config;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A titled list of options, one section of docs/configuration.md.
 *
 * <p>Keys of YAML files are dotted paths, with {@code []} marking the items of a list: {@code
 * slice.column}, {@code schema[].name}, {@code checks[].row_count.min}. Parsers take the keys they
 * accept from {@link #keysUnder(String)}, so a key cannot be accepted without being documented.
 */
public record OptionGroup(String title, String description, List<FloeOption> options) {

  public OptionGroup {
    options = List.copyOf(options);
  }

  /**
   * The names allowed directly under {@code path}, in declaration order: {@code keysUnder("")}
   * gives the top-level keys, {@code keysUnder("schema[]")} the keys of one column.
   */
  public Set<String> keysUnder(String path) {
    String prefix = path.isEmpty() ? "" : path + ".";
    Set<String> keys = new LinkedHashSet<>();
    for (FloeOption option : options) {
      if (option.key().startsWith(prefix) && option.key().length() > prefix.length()) {
        String rest = option.key().substring(prefix.length());
        int dot = rest.indexOf('.');
        String name = dot < 0 ? rest : rest.substring(0, dot);
        keys.add(name.endsWith("[]") ? name.substring(0, name.length() - 2) : name);
      }
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot list keys: no option of '" + title + "' lies under '" + path + "'");
    }
    return Collections.unmodifiableSet(keys);
  }
}
