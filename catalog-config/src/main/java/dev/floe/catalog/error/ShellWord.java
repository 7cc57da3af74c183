package dev.floe.catalog.error;

/**
 * A value spliced into a command Floe prints for the user to copy ({@code floe untag TABLE TAG},
 * {@code floe late apply MANIFEST ...}), written as one word of a POSIX shell command line, so the
 * pasted command gets the value back exactly: a table {@code sales.order items}, a tag {@code q4
 * close} or a manifest {@code my jobs/orders.yaml} neither splits into two arguments nor runs
 * anything ({@code $(...)}, {@code ;}, {@code &}, {@code |}, {@code >}) nor expands ({@code *},
 * {@code ~}, {@code $HOME}, {@code {a,b}}).
 *
 * <p>Rules, in order:
 *
 * <ul>
 *   <li>A value of at least one character, each a safe one, is returned unchanged. Safe are the
 *       ASCII letters and digits, the characters {@code _ - . , / : = @ + %}, and any non-ASCII
 *       code point that is a letter or digit ({@link Character#isLetterOrDigit(int)}, e.g. {@code
 *       é}, {@code ß}, {@code 日}); but not {@code =} as the first character, which zsh expands
 *       ({@code =ls} is {@code /bin/ls}). None of them is special to a POSIX shell anywhere in a
 *       word that is not the command name (so {@code a=b} is an argument, not an assignment, here).
 *   <li>Any other value, the empty one too, is wrapped in single quotes, inside which a POSIX shell
 *       takes every character literally; each {@code '} of the value is written {@code '\''} (close
 *       the quotes, an escaped quote, reopen them). {@code ""} becomes {@code ''}; {@code it's}
 *       becomes {@code 'it'\''s'}. Quoting also keeps bash's history expansion ({@code !}) off.
 *   <li>A control character ({@link Shown#isControl(int)}: a line break, tab, escape) cannot be
 *       written on one line in a POSIX word ({@code $'\n'} is bash's, not dash's), and a printed
 *       command must stay one line: it is escaped as {@link Shown#value(String)} escapes it ({@code
 *       \n}, {@code \t}, {@code \u001b}) inside the quotes. The word then prints those escapes, not
 *       the value, so such a command does not name the value when pasted; Floe's own names never
 *       hold one (table specs refuse a table or column name with a control character).
 * </ul>
 *
 * <p>Unlike {@link Shown#value(String)}, a long value is never cut: a cut word names another value.
 * Only the values the user passes are quoted; a value Floe makes that can only be a safe token (a
 * snapshot id, a run id, a slice such as {@code 2026-10-03}) passes through unchanged anyway.
 */
public final class ShellWord {
  private static final String SAFE_ASCII = "_-.,/:=@+%";

  private ShellWord() {}

  /**
   * Returns {@code value} as one POSIX shell word that a shell reads back as {@code value}.
   *
   * @param value a value to splice into a printed command
   * @return {@code value} unchanged when every character is safe, else {@code value} in single
   *     quotes with each {@code '} written {@code '\''} and each control character escaped; {@code
   *     null} as {@code null}, as {@link String#valueOf(Object)} prints it
   */
  public static String of(String value) {
    if (value == null) {
      return "null";
    }
    if (isSafe(value)) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length() + 8).append('\'');
    value
        .codePoints()
        .forEach(
            c -> {
              if (c == '\'') {
                out.append("'\\''");
              } else if (Shown.isControl(c)) {
                out.append(Shown.value(Character.toString(c)));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.append('\'').toString();
  }

  /** Whether {@code value} is a shell word as it is: not empty, and only safe characters. */
  static boolean isSafe(String value) {
    return !value.isEmpty()
        && value.charAt(0) != '='
        && value.codePoints().allMatch(ShellWord::isSafe);
  }

  private static boolean isSafe(int c) {
    if (c < 0x80) {
      return (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || SAFE_ASCII.indexOf(c) >= 0;
    }
    return Character.isLetterOrDigit(c);
  }
}
