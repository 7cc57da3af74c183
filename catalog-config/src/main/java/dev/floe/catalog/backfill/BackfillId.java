package dev.floe.catalog.backfill;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import java.text.Normalizer;
import java.util.regex.Pattern;

/**
 * The id every snapshot of one backfill records as {@code floe.backfill-id}. A derived id is a pure
 * function of the job, the range, the manifest and the code version: running the same command again
 * resumes the same backfill, and a changed manifest or build starts a new one.
 */
public final class BackfillId {
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private BackfillId() {}

  /**
   * E.g. {@code fact_orders_daily_2026-01-01_2026-04-01_3fa2c1d04b7e}. The range's ends are taken
   * as the slice values they read as ({@code 2026-03-28 23:00:00} and {@code 2026-03-28T23} give
   * one id), so a resume spelled another way finds the backfill it resumes.
   */
  public static String derive(
      String job, String target, String from, String to, String manifestText, String codeVersion) {
    from = canonical(from);
    to = canonical(to);
    String hash = RunKey.of(job, target, from + "/" + to, manifestText, codeVersion);
    // The hash keeps ids apart; the readable part is cut so any job name gives a valid id, its
    // accents dropped first (événements → evenements, not -v-nements).
    String readable =
        Normalizer.normalize(job + "_" + from + "_" + to, Normalizer.Form.NFD)
            .replaceAll("\\p{M}", "")
            .replaceAll("[^A-Za-z0-9._-]", "-");
    if (readable.length() > 100) {
      readable = readable.substring(0, 100);
    }
    if (!Character.isLetterOrDigit(readable.charAt(0))) {
      readable = "bf" + readable;
    }
    return readable + "_" + hash.substring(0, 12);
  }

  /** {@code value} as {@code --slice} writes it, or as given when it is no slice value. */
  private static String canonical(String value) {
    if (SliceResolver.problem(value).isPresent()) {
      return value;
    }
    SliceResolver.ParsedValue parsed = SliceResolver.parse(value, "");
    return Slice.of("", Slice.ColumnKind.TIMESTAMP, parsed.unit(), parsed.start()).value();
  }

  /** Refuses an id that would not survive a shell, a URL or a snapshot summary unchanged. */
  public static void requireValid(String id, String source) {
    InvalidInputException.check(
        id != null && VALID.matcher(id).matches(),
        "Cannot use backfill id '%s' from %s: use 1 to 128 letters, digits, '.', '_' or '-',"
            + " starting with a letter or digit",
        Shown.value(id),
        source);
  }
}
