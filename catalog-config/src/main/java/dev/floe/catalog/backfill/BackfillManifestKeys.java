package dev.floe.catalog.backfill;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/**
 * The keys of a backfill manifest, declared once. {@link BackfillSpecParser} accepts exactly these
 * keys; each has a command-line flag of the same meaning on {@code floe backfill}, which wins.
 */
public final class BackfillManifestKeys {
  public static final FloeOption BACKFILL =
      FloeOption.of(
          "backfill",
          "string",
          null,
          "The backfill's id, recorded as `floe.backfill-id` in every snapshot it commits (letters,"
              + " digits, `.`, `_`, `-`). Absent: derived from the job, the range, the manifest"
              + " and the code version, so the same command resumes the same backfill.");
  public static final FloeOption DESCRIPTION =
      FloeOption.of("description", "string", null, "Free text: why this backfill runs.");
  public static final FloeOption JOB =
      FloeOption.of(
          "job",
          "path",
          null,
          "Required. The job manifest to run for every slice, relative to this file. Its mode"
              + " must be rerun-safe and it must have a slice.");
  public static final FloeOption FROM =
      FloeOption.of(
          "from",
          "slice value",
          null,
          "Required. The first slice, inclusive, e.g. `2026-01-01`; its unit (hour, day, month,"
              + " year) is the unit of every slice of the range.");
  public static final FloeOption TO =
      FloeOption.of(
          "to",
          "slice value",
          null,
          "Required. The end of the range, exclusive, in the same unit as `from`, e.g."
              + " `2026-04-01` for the first quarter.");

  /** The most slices in flight at once, by the manifest or {@code --max-concurrency}. */
  public static final int MOST_CONCURRENCY = 1024;

  /** The most slices in one Flink job, by the manifest or {@code --slices-per-job}. */
  public static final int MOST_SLICES_PER_JOB = 100_000;

  public static final FloeOption MAX_CONCURRENCY =
      FloeOption.of(
          "max_concurrency",
          "int",
          "1",
          "Slices in flight at once. Commits are serialized per table whatever this is. The"
              + " default of 1 leaves the cluster and the source to the daily runs.");
  public static final FloeOption SLICES_PER_JOB =
      FloeOption.of(
          "slices_per_job",
          "int",
          "1",
          "Up to this many consecutive slices in one Flink job, each still its own commit, when"
              + " the job's query is a SELECT from one table filtered by the slice column; other"
              + " queries run a Flink job per slice, and the summary says why"
              + " (docs/operators/backfill.md).");
  public static final FloeOption SAMPLE =
      FloeOption.of(
          "sample",
          "slice value",
          null,
          "The slice validated end to end first, run twice (the second time into a scratch"
              + " branch) with both content hashes compared. Absent: the last slice of the"
              + " range.");
  public static final FloeOption EXPECT_VERSION =
      FloeOption.of(
          "expect_version",
          "string",
          null,
          "Refuse to start unless the running Floe build has exactly this code version (pinned"
              + " code: backfill with the logic you intend).");
  public static final FloeOption FAIL_FAST =
      FloeOption.of(
          "fail_fast",
          "boolean",
          "false",
          "Stop at the first failed slice. Otherwise the other slices still run and the"
              + " backfill exits non-zero at the end.");
  public static final FloeOption ALLOW_EFFECTS =
      FloeOption.of(
          "allow_effects",
          "boolean",
          "false",
          "Let each slice fire its job's `effects`. Off by default: a backfill of 300 slices"
              + " must not send 300 webhooks.");
  public static final FloeOption OVERALL_TIMEOUT =
      FloeOption.of(
          "overall_timeout",
          "duration",
          null,
          "How long the whole backfill may take, sample check included, as ISO-8601 (`PT8H`) or"
              + " `90s`, `30m`, `8h`, `1d`. When it passes, no further slice starts, the slices"
              + " in flight are cancelled like a slice past its own timeout (nothing of them"
              + " committed; a commit already under way is looked up by run id), and the backfill"
              + " exits 6. The slices it loaded stay loaded: rerun it to resume. Each slice is"
              + " also bound by its job's `timeout` (or `floe backfill --timeout`). Absent: no"
              + " limit.");

  public static final FloeOption ON_BACKFILL_DONE =
      FloeOption.of(
          "on_backfill_done",
          "list",
          null,
          "Webhooks sent once when every slice of the backfill is loaded, e.g. to tell downstream"
              + " that these slices were rebuilt so caches and BI extracts get invalidated. Items"
              + " take the keys of a job manifest's `effects[]`; a body may use `${backfill_id}`,"
              + " `${job}`, `${target}`, `${mode}`, `${from}`, `${to}`, `${slices}`,"
              + " `${committed}`, `${skipped}`, `${rows}` and `${code_version}`. Recorded in the"
              + " outbox under `backfill:<id>`, so a resumed or repeated backfill does not send"
              + " them again.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Backfill manifest keys",
          "A backfill manifest (YAML) names a job manifest and a range of slices for `floe"
              + " backfill`. A flag wins over the file: each key has one of the same name with"
              + " hyphens (`max_concurrency` is `--max-concurrency`) except `backfill`, which is"
              + " `--backfill-id`, `job`, which is the manifest argument itself, and"
              + " `description` and `on_backfill_done`, which only the file gives. An unknown key"
              + " is an error that names the key and the file.",
          List.of(
              BACKFILL,
              DESCRIPTION,
              JOB,
              FROM,
              TO,
              MAX_CONCURRENCY,
              SLICES_PER_JOB,
              SAMPLE,
              EXPECT_VERSION,
              FAIL_FAST,
              ALLOW_EFFECTS,
              OVERALL_TIMEOUT,
              ON_BACKFILL_DONE));

  private BackfillManifestKeys() {}
}
