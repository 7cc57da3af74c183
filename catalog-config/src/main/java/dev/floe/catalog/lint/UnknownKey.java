package dev.floe.catalog.lint;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A key the manifest's kind does not declare: a typo here is a setting silently not applied. */
final class UnknownKey implements Check {
  static final Rule RULE =
      new Rule(
          "unknown-key",
          Severity.ERROR,
          "A key the manifest's kind does not declare (every one, not only the first the parser"
              + " stops at), with the closest known key.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    return KnownKeys.unknown(manifest.kind(), manifest.root()).stream()
        .map(
            unknown ->
                RULE.at(
                    manifest,
                    unknown.path(),
                    "Cannot read key '%s'%s: a %s has no such key; %s",
                    unknown.key(),
                    unknown.parent().isEmpty() ? "" : " in '" + unknown.parent() + "'",
                    manifest.kind().noun(),
                    closest(unknown.key(), unknown.allowed())
                        .map(known -> "did you mean '" + known + "'?")
                        .orElse("allowed: " + String.join(", ", unknown.allowed()))))
        .toList();
  }

  /** The allowed key within two edits of {@code key}, if one is. */
  static Optional<String> closest(String key, Iterable<String> allowed) {
    Optional<String> best = Optional.empty();
    int bestDistance = 3;
    for (String candidate : allowed) {
      int distance = distance(key.toLowerCase(Locale.ROOT), candidate);
      if (distance < bestDistance) {
        best = Optional.of(candidate);
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
