package dev.floe.catalog.error;

/**
 * A value a user gave (a {@code --slice}, a string in a row), as an error message may quote it. A
 * failure is one line on stderr, so a line break or another control character in the value is shown
 * escaped ({@code \n}, {@code \t}, {@code \u001b}), and a long value is cut after {@link
 * #MAX_CHARS} characters with its length: a 2 MB string in a row must not become a 2 MB error.
 */
public final class Shown {
  /** The most characters of one value a message quotes. */
  public static final int MAX_CHARS = 100;

  private Shown() {}

  /** Whether {@code c} breaks a line or is no printable character: shown escaped. */
  public static boolean isControl(int c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }

  /**
   * @return {@code text} on one line, cut after {@link #MAX_CHARS} characters with {@code … (N
   *     characters)} after it; {@code null} as {@code null}
   */
  public static String value(String text) {
    if (text == null) {
      return "null";
    }
    boolean cut = text.length() > MAX_CHARS;
    String shown = oneLine(cut ? text.substring(0, MAX_CHARS) : text);
    return cut ? shown + "… (" + text.length() + " characters)" : shown;
  }

  /**
   * @return {@code text} on one line, its line breaks and other control characters escaped ({@code
   *     \n}, {@code \t}, {@code \u001b}), never cut: for a place that must keep the whole value,
   *     such as a comment of a rendered resource
   */
  public static String oneLine(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (isControl(c)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
