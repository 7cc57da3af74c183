package dev.floe.catalog.lint;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why the project's own parser refused a manifest, read back from its message ({@code Cannot read
 * FILE at 'PATH': PROBLEM}), so lint can put it on the line of the key.
 *
 * @param path the key path the parser named, empty for the whole file
 * @param anchor the key the refusal is about: the path, or the missing or unknown key under it
 * @param problem what the parser said, without the file name
 */
record ParserRefusal(String path, String anchor, String problem) {
  private static final Pattern KEY_IN_PROBLEM =
      Pattern.compile("^(?:missing required key|unknown key|key) '([^']+)'");

  static ParserRefusal of(String source, RuntimeException refusal) {
    String message = String.valueOf(refusal.getMessage());
    String path = "";
    String problem = message;
    String prefix = "Cannot read " + source;
    if (message.startsWith(prefix + " at '")) {
      String rest = message.substring(prefix.length() + " at '".length());
      int end = rest.indexOf("': ");
      if (end >= 0) {
        path = rest.substring(0, end);
        problem = rest.substring(end + "': ".length());
      }
    } else if (message.startsWith(prefix + ": ")) {
      problem = message.substring(prefix.length() + ": ".length());
    }
    String anchor = path;
    Matcher key = KEY_IN_PROBLEM.matcher(problem);
    if (key.find()) {
      anchor = path.isEmpty() ? key.group(1) : path + "." + key.group(1);
    }
    return new ParserRefusal(path, anchor, problem);
  }
}
