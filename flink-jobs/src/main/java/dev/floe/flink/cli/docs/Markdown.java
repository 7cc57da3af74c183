package dev.floe.flink.cli.docs;

import java.util.Locale;

/** The few Markdown spellings the generated reference needs. */
final class Markdown {
  // Characters that would turn plain help text into emphasis, links, code or HTML.
  private static final String SPECIAL = "\\`*_[]<>~";

  private Markdown() {}

  /**
   * Plain text (e.g. a picocli description) made safe for Markdown: "a folder of *.yaml/*.yml" must
   * not turn into emphasis.
   */
  static String text(String plain) {
    StringBuilder out = new StringBuilder(plain.length());
    for (char c : plain.toCharArray()) {
      if (SPECIAL.indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  /** A code span; empty text stays empty so a table cell can be blank. */
  static String code(String literal) {
    if (literal == null || literal.isEmpty()) {
      return "";
    }
    String fence = literal.contains("`") ? "``" : "`";
    String padding = literal.startsWith("`") || literal.endsWith("`") ? " " : "";
    return fence + padding + literal + padding + fence;
  }

  /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
  static String anchor(String heading) {
    return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{Alnum} _-]", "").replace(' ', '-');
  }
}
