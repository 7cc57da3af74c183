package dev.floe.flink.backfill;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.backfill.FinishedSlices;
import dev.floe.catalog.backfill.SliceRange;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.lineage.CodeVersion;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.slice.Slice;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.flink.job.SliceReads;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Decides a backfill before anything runs: refuses what is unsafe (a job without a slice, a code
 * version other than the pinned one), lists the slices of the range, picks the sample, and marks
 * the slices this backfill already loaded from sources that still hold what it read ({@link
 * FinishedSlices}). Metadata, plus the source files appended since a load that may hold its rows.
 */
final class BackfillPlanner {

  private BackfillPlanner() {}

  static BackfillPlan plan(BackfillRequest request) {
    JobSpec job = request.job();
    String codeVersion = CodeVersion.current();
    if (request.expectVersion() != null && !request.expectVersion().equals(codeVersion)) {
      throw InvalidInputException.of(
          "Cannot start the backfill of %s: it is pinned to code version %s (--expect-version)"
              + " but this is Floe %s; run it with the pinned build",
          job.source(), request.expectVersion(), codeVersion);
    }
    // Every write mode Floe has replaces what it owns (there is no append mode: the manifest
    // parser refuses one), so each is rerun-safe; what a backfill needs on top is a slice.
    if (!job.hasSlice()) {
      throw InvalidInputException.of(
          "Cannot backfill %s: mode %s without slice: {column: ...} owns the whole table, so"
              + " there are no slices to backfill; run it once with `floe run`",
          job.source(), job.mode().text());
    }
    String backfillId =
        request.options().backfillId() != null
            ? request.options().backfillId()
            : BackfillId.derive(
                job.job(), job.target(), request.from(), request.to(), job.text(), codeVersion);
    BackfillId.requireValid(
        backfillId,
        request.options().backfillId() != null ? "the backfill id" : "the derived backfill id");

    Catalog catalog = Catalogs.open(request.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, job.target());
      List<Slice> slices =
          SliceRange.of(
              job.target(), table, job.sliceColumn(), request.rangeStart(), request.rangeEnd());
      Slice sample =
          request.sample() == null
              ? slices.get(slices.size() - 1)
              : SliceRange.find(
                  slices,
                  SliceResolver.resolve(
                      request.sampleSource(),
                      job.target(),
                      table,
                      job.sliceColumn(),
                      request.sample()),
                  request.sampleSource());
      FinishedSlices finished =
          FinishedSlices.of(
              table,
              source -> Catalogs.loadTable(catalog, source),
              () -> SliceReads.whyItMayReadBeyond(job, request.catalog(), sample));
      List<PlannedSlice> planned = new ArrayList<>();
      PlannedSlice plannedSample = null;
      for (Slice slice : slices) {
        String runKey = RunKey.of(job.job(), job.target(), slice.label(), job.text(), codeVersion);
        FinishedSlices.Status status = finished.status(slice, runKey, backfillId);
        PlannedSlice entry =
            new PlannedSlice(
                slice.value(),
                slice.label(),
                runKey,
                slice.label().equals(sample.label()),
                status.finished(),
                status.runAgainBecause());
        planned.add(entry);
        if (entry.sample()) {
          plannedSample = entry;
        }
      }
      return new BackfillPlan(
          backfillId,
          job.job(),
          job.target(),
          job.mode().text(),
          codeVersion,
          planned,
          plannedSample,
          request.maxConcurrency(),
          parallelism(request));
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * The flag's, else the manifest's, else the cores shared among the slices in flight: many small
   * slices go fastest side by side at parallelism 1, one big slice with every core.
   */
  private static int parallelism(BackfillRequest request) {
    if (request.options().parallelism() > 0) {
      return request.options().parallelism();
    }
    if (request.job().parallelism() > 0) {
      return request.job().parallelism();
    }
    return Math.max(1, Runtime.getRuntime().availableProcessors() / request.maxConcurrency());
  }
}
