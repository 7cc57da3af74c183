package dev.floe.flink.deploy;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a shell command line into words the way bash does for the simple lines in our READMEs:
 * single and double quotes, backslash-newline continuations (already joined by the caller) and
 * {@code #} comments. No expansion: {@code "$@"} stays the word {@code $@}.
 */
final class ShellWords {
  private ShellWords() {}

  /** True when {@code text} ends inside a quote, i.e. the command goes on on the next line. */
  static boolean endsInQuote(String text) {
    char quote = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '#' && !inWord) {
        return false;
      } else {
        inWord = !Character.isWhitespace(c);
      }
    }
    return quote != 0;
  }

  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '#' && !inWord) {
        break;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("Cannot split shell line: unclosed quote in " + line);
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
