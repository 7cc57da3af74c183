package dev.floe.catalog.manifest;

import dev.floe.catalog.error.Shown;
import java.util.Optional;

/**
 * What a name a person types, reads and compares may hold: one rule for a job's name ({@link
 * ManifestNode#requiredName}) and the table and column names a spec creates. Refused: spaces around
 * it in any script, a no-break space too (a YAML typo makes {@code " daily"} a second job and
 * {@code " sales"} a namespace of its own), and a control or format character anywhere (a line
 * break prints as extra lines of output; a zero-width space makes a second name that looks like the
 * first).
 */
public final class NameText {
  private NameText() {}

  /** True when {@code name} holds nothing but spaces and invisible characters. */
  public static boolean isBlank(String name) {
    return name.codePoints().allMatch(c -> isSpace(c) || isInvisible(c));
  }

  /**
   * Why {@code name} cannot be a name, as the end of a sentence about it ({@code has spaces around
   * it}), if it cannot; a blank name is its caller's to refuse ({@link #isBlank}).
   */
  public static Optional<String> problem(String name) {
    if (!name.isEmpty()
        && (isSpace(name.codePointAt(0)) || isSpace(name.codePointBefore(name.length())))) {
      return Optional.of("has spaces around it");
    }
    return name.codePoints()
        .filter(NameText::isInvisible)
        .mapToObj(c -> String.format("holds a control or invisible character (U+%04X)", c))
        .findFirst();
  }

  /** A space in any script: also a no-break space (U+00A0), which isWhitespace leaves out. */
  private static boolean isSpace(int c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  /**
   * A control or format character (a zero-width space, a byte order mark, a direction mark): not
   * seen, not typed. Not the zero-width non-joiner and joiner (U+200C, U+200D), which Persian and
   * Indic spelling and emoji need.
   */
  private static boolean isInvisible(int c) {
    return Shown.isControl(c) || Character.getType(c) == Character.FORMAT && c != ZWNJ && c != ZWJ;
  }

  private static final int ZWNJ = 0x200C;
  private static final int ZWJ = 0x200D;
}
