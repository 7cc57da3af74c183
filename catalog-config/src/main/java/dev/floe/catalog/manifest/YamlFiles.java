package dev.floe.catalog.manifest;

import java.nio.file.Path;
import java.util.Locale;

/** Which files of a folder Floe reads as YAML: the one rule for every command that reads one. */
public final class YamlFiles {
  private YamlFiles() {}

  /**
   * Whether {@code file}'s name ends in {@code .yaml} or {@code .yml}, in any case, and is not
   * hidden: {@code ORDERS.YAML} is read like {@code orders.yaml} (it was linted by {@code floe
   * lint} but skipped by {@code floe tables apply}); an editor's {@code .#orders.yaml} lock or a
   * {@code .orders.yaml.swp}-like file is not a spec.
   */
  public static boolean isYaml(Path file) {
    Path name = file.getFileName();
    if (name == null) {
      return false;
    }
    String lower = name.toString().toLowerCase(Locale.ROOT);
    return !lower.startsWith(".") && (lower.endsWith(".yaml") || lower.endsWith(".yml"));
  }
}
