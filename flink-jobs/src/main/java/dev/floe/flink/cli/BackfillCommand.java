package dev.floe.flink.cli;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.backfill.BackfillSpec;
import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.backfill.RangeEnd;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.flink.backfill.Backfill;
import dev.floe.flink.backfill.BackfillRequest;
import dev.floe.flink.backfill.BackfillResult;
import dev.floe.flink.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe backfill jobs/x.yaml --from 2026-01-01 --to 2026-04-01`: every slice, one commit each. */
@Command(
    name = "backfill",
    header = "Run a job for every slice of a range, one commit each.",
    mixinStandardHelpOptions = true,
    description = {
      "Run a job for every slice of [--from, --to), each slice in its own atomic commit that",
      "records floe.backfill-id. First the sample slice runs twice (the second time into a",
      "scratch branch) and must give the same content; then the other slices run, at most",
      "--max-concurrency at once, commits serialized per table. Rerunning the same backfill",
      "skips the slices it already loaded while their sources hold what those loads read.",
      "MANIFEST is a job manifest (give --from and --to) or a backfill manifest naming the job",
      "and the range; flags win over the file. Each slice is bound by --timeout (else the job's",
      "timeout:), the whole backfill by --overall-timeout (else the manifest's overall_timeout:);",
      "a slice past its timeout fails (exit 6) like any failed slice, and past the overall",
      "timeout no slice starts, those in flight are cancelled, and the backfill exits 6."
    })
public final class BackfillCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "MANIFEST",
      description = "A job manifest, or a backfill manifest (YAML).")
  Path manifest;

  @Mixin SliceRangeOptions range;

  @Option(
      names = "--max-concurrency",
      paramLabel = "N",
      description =
          "Slices in flight at once (default: the manifest's, else 1, so daily runs and the"
              + " source are not starved).")
  Integer maxConcurrency;

  @Option(
      names = "--slices-per-job",
      paramLabel = "N",
      description =
          "Load up to N consecutive slices in one Flink job, each still its own commit, when the"
              + " job's query is a SELECT from one table filtered by the slice column (others run"
              + " a job per slice; the summary says why). Such a job may take each slice's"
              + " --timeout once per slice. Default: the manifest's, else 1.")
  Integer slicesPerJob;

  @Option(
      names = "--sample",
      paramLabel = "SLICE",
      description = "The slice validated twice before the others (default: the last one).")
  String sample;

  @Option(
      names = "--sample-only",
      description = "Stop after the sample check: validate one partition, launch nothing else.")
  boolean sampleOnly;

  @Option(
      names = "--expect-version",
      paramLabel = "VERSION",
      description =
          "Refuse to start unless this Floe build has exactly this code version (`floe"
              + " --version`): backfill with the logic you pinned.")
  String expectVersion;

  @Mixin BackfillIdOption backfillId;

  @Option(
      names = "--fail-fast",
      negatable = true,
      description =
          "Stop starting slices after the first failure (default: the manifest's, else finish"
              + " the others); --no-fail-fast overrides a manifest's fail_fast: true.")
  Boolean failFast;

  @Mixin AllowEffectsOption allowEffects;
  @Mixin ParallelismOption parallelism;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "How long each slice's run may take, e.g. 30m, 2h or PT30M; wins over the job's"
              + " timeout:. A slice past it is cancelled, commits nothing and fails with exit code"
              + " 6 (default: the job's timeout, else no limit).")
  String timeout;

  @Option(
      names = "--overall-timeout",
      paramLabel = "DURATION",
      description =
          "How long the whole backfill may take, sample check included, e.g. 8h or PT8H; wins"
              + " over the manifest's overall_timeout:. Past it no further slice starts, the"
              + " slices in flight are cancelled (nothing of them committed), the slices loaded"
              + " stay loaded and the backfill exits 6; rerun it to resume (default: the"
              + " manifest's, else no limit).")
  String overallTimeout;

  @Option(
      names = "--progress",
      paramLabel = "auto|bar|lines|none",
      defaultValue = "auto",
      description =
          "Progress on stderr: a bar on a terminal, a line per slice otherwise (default:"
              + " ${DEFAULT-VALUE}).")
  String progress;

  @Option(
      names = "--dry-run",
      description = "List the slices it would run or skip and the checks it would make; run none.")
  boolean dryRun;

  @Option(
      names = "--inject-failure-at",
      hidden = true,
      paramLabel = "SLICE",
      description = "Fail this slice's run before its commit, to rehearse a resume.")
  String failAtSlice;

  @Override
  public Integer call() {
    // Checked whatever prints it, as the other flags are: a dry run refuses what a run would.
    BackfillProgress.Style style = style();
    BackfillRequest request = request();
    PrintWriter out = spec.commandLine().getOut();
    BackfillProgress listener =
        new BackfillProgress(
            spec.commandLine().getErr(),
            common.json || dryRun ? BackfillProgress.Style.NONE : style,
            System::nanoTime);
    BackfillResult result = Backfill.run(request, listener);
    BackfillOutput output = new BackfillOutput(request, result);
    if (common.json) {
      out.println(output.json());
    } else {
      out.print(output.text());
    }
    out.flush(); // print() alone does not flush: bin/floe would exit with it unwritten
    // On stderr with --json too, as `floe run --json` says an effect that did not arrive.
    PrintWriter err = spec.commandLine().getErr();
    output.warnings().forEach(w -> err.println("floe backfill: warning: " + w));
    // As every failed command: one line that says what failed, after the progress lines.
    result.failure().ifPresent(error -> err.println("floe: " + error));
    return result.exitCode();
  }

  private BackfillRequest request() {
    boolean isBackfillManifest =
        BackfillSpecParser.isBackfillManifest(Manifests.load(manifest).root());
    // The flags win: the file's values they replace are not read, not even checked.
    BackfillSpec file =
        isBackfillManifest
            ? BackfillSpecParser.load(
                manifest, BackfillSpecParser.givenByFlags(range.from, range.to, sample))
            : null;
    JobSpec job = JobSpecParser.load(file == null ? manifest : file.job());
    // A value's form is checked naming the flag that gave it; the table checks the rest. A job
    // without slices, or a missing value, is refused below as such.
    if (job.sliceColumn() != null) {
      for (String[] flag :
          new String[][] {{"--from", range.from}, {"--to", range.to}, {"--sample", sample}}) {
        if (flag[1] != null && !flag[1].isBlank()) {
          SliceResolver.parse(flag[0], flag[1], job.sliceColumn());
        }
      }
    }
    String id = backfillId.value() != null ? backfillId.value() : file == null ? null : file.id();
    if (id != null) {
      BackfillId.requireValid(
          id, backfillId.value() != null ? "--backfill-id" : manifest.toString());
    }
    CatalogConfig catalog = dryRun ? common.catalog() : common.creatingCatalog();
    RunOptions options =
        RunOptions.builder()
            .backfillId(id)
            .allowEffects(
                allowEffects.value() != null
                    ? allowEffects.value()
                    : file != null && Boolean.TRUE.equals(file.allowEffects()))
            .dryRun(dryRun)
            .parallelism(parallelism.value())
            .timeout(timeout == null ? null : Timeout.ofFlag("--timeout", timeout))
            .build();
    return BackfillRequest.builder(
            catalog, job, RangeEnd.of("from", range.from, file), RangeEnd.of("to", range.to, file))
        .options(options)
        .slicesPerJob(
            slicesPerJob != null
                ? slicesPerJob
                : file != null && file.slicesPerJob() != null ? file.slicesPerJob() : 1)
        .maxConcurrency(
            maxConcurrency != null
                ? maxConcurrency
                : file != null && file.maxConcurrency() != null ? file.maxConcurrency() : 1)
        .sample(
            sample != null ? sample : file == null ? null : file.sample(),
            sample != null || file == null ? "--sample" : "sample of " + manifest)
        .sampleOnly(sampleOnly)
        .expectVersion(
            expectVersion != null ? expectVersion : file == null ? null : file.expectVersion())
        .failFast(
            failFast != null ? failFast : file != null && Boolean.TRUE.equals(file.failFast()))
        .failAtSlice(failAtSlice)
        .onBackfillDone(file == null ? List.of() : file.onBackfillDone())
        .overallTimeout(
            overallTimeout != null
                ? Timeout.ofFlag("--overall-timeout", overallTimeout)
                : file == null ? null : file.overallTimeout())
        .build();
  }

  private BackfillProgress.Style style() {
    return switch (progress) {
      case "bar" -> BackfillProgress.Style.BAR;
      case "lines" -> BackfillProgress.Style.LINES;
      case "none" -> BackfillProgress.Style.NONE;
      case "auto" ->
          System.console() != null ? BackfillProgress.Style.BAR : BackfillProgress.Style.LINES;
      default ->
          throw InvalidInputException.of(
              "Cannot show progress '%s' (--progress): use auto, bar, lines or none",
              Shown.value(progress));
    };
  }
}
