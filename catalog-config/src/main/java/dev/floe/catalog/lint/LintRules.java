package dev.floe.catalog.lint;

import java.util.ArrayList;
import java.util.List;

/** Every lint rule, in the order {@code floe lint --help} lists them. */
public final class LintRules {
  /** Reported by the reader: a file that is not YAML gets no other check. */
  static final Rule INVALID_YAML =
      new Rule(
          "invalid-yaml",
          Severity.ERROR,
          "A YAML file that does not parse, or a manifest with a second document (Floe reads"
              + " only the first); nothing else in it is checked.");

  static final List<Check> CHECKS =
      List.of(
          new UnknownKey(),
          new DuplicateKey(),
          new NondeterministicQuery(),
          new OverwriteWithoutSlice(),
          new QueryWithoutSliceBounds(),
          new SliceBoundsNotHalfOpen(),
          new QueryReadsTarget(),
          MissingKey.merge(),
          new MergeWithoutOrdering(),
          MissingKey.insertIfAbsent(),
          new DeleteMissingWithoutSlice(),
          new SlicedKeyWithoutSliceColumn(),
          new SliceNotPartitionSource(),
          new SliceUnaligned(),
          new EffectWithoutDedupKey(),
          new EffectLiteralSecret(),
          new MissingTimeout(),
          new BackfillJobNotFound(),
          new BackfillConcurrency(),
          new BackfillAllowEffects(),
          new TableWithoutKey(),
          new TableWithoutLateData());

  /** Every rule: the reader's two, then one per check. */
  public static final List<Rule> ALL = all();

  private LintRules() {}

  private static List<Rule> all() {
    List<Rule> rules = new ArrayList<>(List.of(INVALID_YAML, InvalidManifest.RULE));
    CHECKS.forEach(check -> rules.add(check.rule()));
    return List.copyOf(rules);
  }
}
