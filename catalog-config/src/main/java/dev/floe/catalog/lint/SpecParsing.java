package dev.floe.catalog.lint;

import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.ManifestNode;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.spec.TableSpecParser;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the project's own parser on a manifest, so lint refuses exactly what {@code floe run},
 * {@code floe tables} and {@code floe backfill} refuse. Keys lint already reported as unknown are
 * left out first: the parser stops at its first refusal, and the rest of the file deserves to be
 * checked too.
 */
final class SpecParsing {
  /** A key to leave out: {@code key} in the mapping at {@code parent} ({@code ""}: the top). */
  record Dropped(String parent, String key) {}

  /** The parsed spec, or why the parser refused it. */
  record Outcome(Object spec, ParserRefusal refusal) {}

  private SpecParsing() {}

  static Outcome parse(
      ManifestKind kind, Path path, String source, String text, List<Dropped> drop) {
    try {
      return new Outcome(parsed(kind, path, source, text, drop), null);
    } catch (RuntimeException refusal) {
      return new Outcome(null, ParserRefusal.of(source, refusal));
    }
  }

  private static Object parsed(
      ManifestKind kind, Path path, String source, String text, List<Dropped> drop) {
    return switch (kind) {
      case JOB -> JobSpecParser.parse(without(source, text, drop), text);
      case TABLE -> TableSpecParser.parse(without(source, text, drop));
      // The backfill parser reads only files; it sees the file as written.
      case BACKFILL -> BackfillSpecParser.load(path);
    };
  }

  /**
   * The file's tree without the keys in {@code drop}, every other value as the file spells it (a
   * tree written back as YAML read {@code job: 010} as job {@code 8}).
   */
  private static ManifestNode without(String source, String text, List<Dropped> drop) {
    return Manifests.parse(source, text)
        .without((parent, key) -> drop.contains(new Dropped(parent, key)));
  }
}
