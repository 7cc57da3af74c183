package dev.floe.catalog.backfill;

import dev.floe.catalog.job.EffectSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.slice.SliceResolver;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads backfill manifests, whose keys are declared in {@link BackfillManifestKeys}. Unknown keys
 * are errors naming key and file.
 */
public final class BackfillSpecParser {
  private static final Set<String> KEYS = BackfillManifestKeys.GROUP.keysUnder("");

  private BackfillSpecParser() {}

  /**
   * True when {@code root} is a backfill manifest rather than a job manifest: a job manifest names
   * its {@code target}, a backfill manifest names a {@code job} file and a range.
   */
  public static boolean isBackfillManifest(ManifestNode root) {
    return isBackfillManifest(root::has);
  }

  /** The same rule over a document's top-level keys, {@code hasKey}. */
  public static boolean isBackfillManifest(Predicate<String> hasKey) {
    return !hasKey.test("target")
        && (hasKey.test("from") || hasKey.test("to") || hasKey.test("backfill"));
  }

  public static BackfillSpec load(Path file) {
    return load(file, Set.of());
  }

  /**
   * As {@link #load(Path)}, but the file's values for {@code givenByFlags} ({@code from}, {@code
   * to}, {@code sample}) are not read: the command line's flags win over them, also over a value
   * the file lacks or gets wrong. They are null in the spec; the range the flags and the file give
   * together ({@link RangeEnd#of}) is then checked where it is cut into slices ({@link
   * SliceRange}), naming where each end came from.
   */
  public static BackfillSpec load(Path file, Set<String> givenByFlags) {
    return parse(Manifests.load(file).root(), file, givenByFlags);
  }

  /** The keys ({@code from}, {@code to}, {@code sample}) whose flag values are given (not null). */
  public static Set<String> givenByFlags(String from, String to, String sample) {
    Set<String> given = new HashSet<>();
    if (from != null) {
      given.add("from");
    }
    if (to != null) {
      given.add("to");
    }
    if (sample != null) {
      given.add("sample");
    }
    return given;
  }

  static BackfillSpec parse(ManifestNode root, Path file) {
    return parse(root, file, Set.of());
  }

  private static BackfillSpec parse(ManifestNode root, Path file, Set<String> givenByFlags) {
    root.requireOnlyKeys(KEYS);
    String id = root.has("backfill") ? root.requiredString("backfill") : null;
    if (id != null) {
      BackfillId.requireValid(id, root.source());
    }
    Path parent = file.toAbsolutePath().getParent();
    Path job = parent.resolve(root.requiredString("job")).normalize();
    Integer maxConcurrency = null;
    if (root.has("max_concurrency")) {
      long value = root.child("max_concurrency").asLong();
      if (value < 1 || value > BackfillManifestKeys.MOST_CONCURRENCY) {
        throw root.child("max_concurrency")
            .error("expected 1 to %d, got %d", BackfillManifestKeys.MOST_CONCURRENCY, value);
      }
      maxConcurrency = (int) value;
    }
    Integer slicesPerJob = null;
    if (root.has("slices_per_job")) {
      long value = root.child("slices_per_job").asLong();
      if (value < 1 || value > BackfillManifestKeys.MOST_SLICES_PER_JOB) {
        throw root.child("slices_per_job")
            .error("expected 1 to %d, got %d", BackfillManifestKeys.MOST_SLICES_PER_JOB, value);
      }
      slicesPerJob = (int) value;
    }
    String from = givenByFlags.contains("from") ? null : sliceValue(root, "from");
    String to = givenByFlags.contains("to") ? null : sliceValue(root, "to");
    if (from != null && to != null) {
      requireRange(root, from, to);
    }
    return new BackfillSpec(
        id,
        job,
        from,
        to,
        maxConcurrency,
        slicesPerJob,
        root.has("sample") && !givenByFlags.contains("sample") ? sliceValue(root, "sample") : null,
        root.has("expect_version") ? root.requiredString("expect_version") : null,
        root.has("fail_fast") ? root.optionalBoolean("fail_fast", false) : null,
        root.has("allow_effects") ? root.optionalBoolean("allow_effects", false) : null,
        root.has("overall_timeout") ? overallTimeout(root.child("overall_timeout")) : null,
        EffectSpecParser.parse(root.child("on_backfill_done"), BackfillEffects.VARIABLES),
        root.source());
  }

  /** A slice value, refused here (naming the file and key) when its form is not one. */
  private static String sliceValue(ManifestNode root, String key) {
    String value = root.requiredString(key);
    Optional<String> problem = SliceResolver.problem(value);
    if (problem.isPresent()) {
      throw root.child(key).error("'%s' is not a slice value: %s", value, problem.get());
    }
    return value;
  }

  /**
   * Refuses, naming the file and {@code to}, a range no backfill can run: ends of different units
   * (a month and a day) or a {@code to} not after {@code from} (it is exclusive). By the values'
   * form alone, as {@code floe backfill} and {@code floe k8s render-backfill} check them.
   */
  private static void requireRange(ManifestNode root, String from, String to) {
    SliceResolver.ParsedValue first = SliceResolver.parse("from", from, "slice");
    SliceResolver.ParsedValue end = SliceResolver.parse("to", to, "slice");
    if (first.unit() != end.unit()) {
      throw root.child("to")
          .error(
              "'%s' is a %s and from '%s' a %s: both ends must be slices of the same unit",
              to,
              end.unit().name().toLowerCase(Locale.ROOT),
              from,
              first.unit().name().toLowerCase(Locale.ROOT));
    }
    if (!first.start().isBefore(end.start())) {
      throw root.child("to")
          .error("'%s' is not after from '%s': the range is empty (to is exclusive)", to, from);
    }
  }

  private static Timeout overallTimeout(ManifestNode node) {
    String text = node.asText();
    try {
      return new Timeout(
          Timeout.parseDuration(text), text.trim(), "overall_timeout in " + node.source());
    } catch (IllegalArgumentException e) {
      throw node.error("'%s' is not a timeout: %s", text, e.getMessage());
    }
  }
}
