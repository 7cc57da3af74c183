package dev.floe.catalog.lint;

import dev.floe.catalog.manifest.ManifestNode;
import java.util.List;
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

  /** The allowed key {@code key} most likely meant, as the manifest readers suggest it. */
  static Optional<String> closest(String key, Iterable<String> allowed) {
    return Optional.ofNullable(ManifestNode.closest(key, allowed));
  }
}
