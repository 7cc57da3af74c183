package dev.floe.catalog.lint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An effect without a usable dedup key. The outbox keys every effect by (run key, effect name), so
 * a retry or a rerun never sends it twice: an effect without a name, or two effects with one name,
 * would break that.
 */
final class EffectWithoutDedupKey implements Check {
  static final Rule RULE =
      new Rule(
          "effect-without-dedup-key",
          Severity.ERROR,
          "An effect (effects, on_backfill_done) without a name, or with a name used twice: the"
              + " name is its outbox dedup key (run key + name) that keeps a retry from sending it"
              + " again.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    List<Finding> findings = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (EffectItems effect : EffectItems.of(manifest)) {
      if (!effect.node().isObject()) {
        continue; // the parser says what an effect must look like
      }
      String name = effect.name();
      if (name == null) {
        findings.add(
            RULE.at(
                manifest,
                effect.path() + ".name",
                "Cannot deduplicate the effect at %s: it has no name, and the name is its outbox"
                    + " key (run key + name) that sends it once",
                effect.path()));
        continue;
      }
      String first = seen.putIfAbsent(name, effect.path());
      if (first != null) {
        findings.add(
            RULE.at(
                manifest,
                effect.path() + ".name",
                "Cannot deduplicate effect '%s': %s has the same name, so both would share one"
                    + " outbox key",
                name,
                first));
      }
    }
    return findings;
  }
}
