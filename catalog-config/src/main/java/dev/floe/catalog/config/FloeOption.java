package dev.floe.catalog.config;

import java.util.Optional;

/**
 * One configuration option, declared once with its description. docs/configuration.md is generated
 * from these declarations (and a test fails when the file and the code drift).
 *
 * @param key the option's name, as written in floe.yaml, a job manifest or a {@code -D} flag
 * @param type a human-readable type, e.g. {@code string}, {@code int}, {@code duration}
 * @param defaultValue the default as text, or null when there is none
 * @param description one or two sentences: what it does and when to change it
 */
public record FloeOption(String key, String type, String defaultValue, String description) {

  public static FloeOption of(String key, String type, String defaultValue, String description) {
    return new FloeOption(key, type, defaultValue, description);
  }

  public Optional<String> defaultText() {
    return Optional.ofNullable(defaultValue);
  }
}
