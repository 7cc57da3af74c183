package dev.floe.flink.backfill;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.Lineage;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.catalog.snapshot.CurrentCommit;
import dev.floe.flink.job.JobFailures;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.ScratchResult;
import dev.floe.flink.job.ScratchRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * Validates one partition end to end before launching the others (the backfill checklist): the
 * sample slice runs on main like every slice, then once more into a scratch branch, and the two
 * contents are compared. They prove reproducibility only when both runs read the same source
 * snapshots. When main's load read other snapshots than the second run (its sources changed since
 * main was loaded, or while the check ran), a different content says main is stale, not that the
 * job is not reproducible: the sample then runs a third time into a scratch branch, the two fresh
 * runs are compared, and when they agree the sample is loaded on main again. A failing run or two
 * different results from the same source snapshots stop the backfill before it touches another
 * slice.
 */
final class SampleRun {

  private SampleRun() {}

  /**
   * @param request the sample slice's run on main
   * @param sample the planned sample slice
   * @param runOnMain runs a slice on main the way every backfill slice runs
   */
  static SampleCheck check(
      RunRequest request, PlannedSlice sample, Function<RunRequest, SliceOutcome> runOnMain) {
    return check(request, sample, runOnMain, () -> BackfillSlices.skipped(sample));
  }

  /**
   * As above; {@code loaded} gives the sample's line when the backfill loaded it already (and sends
   * what its commit still owes, with {@code --allow-effects}).
   */
  static SampleCheck check(
      RunRequest request,
      PlannedSlice sample,
      Function<RunRequest, SliceOutcome> runOnMain,
      Supplier<SliceOutcome> loaded) {
    SliceOutcome first = sample.isFinished() ? loaded.get() : runOnMain.apply(request);
    if (first.failed()) {
      return failedOnMain(sample, first, null, null);
    }
    MainContent main = mainContent(request);
    List<ScratchResult> scratch = new ArrayList<>();
    try {
      ScratchResult second = scratch(request, scratch);
      if (second.content().equals(main.content())) {
        return new SampleCheck(
            sample.value(),
            first,
            main.content().encode(),
            second.content().encode(),
            true,
            "reproducible: a second run into a scratch branch wrote the same "
                + main.content().rows()
                + " rows (content hash "
                + main.content().encode()
                + ")",
            ExitCodes.OK);
      }
      Map<String, Long> secondRead = readExactly(request.catalog(), second);
      if (secondRead != null && secondRead.equals(main.sourcesRead())) {
        return notReproducible(
            request,
            sample,
            first,
            main.content(),
            second.content(),
            "main holds "
                + describe(main.content())
                + ", a second run from the same source snapshots wrote "
                + describe(second.content()));
      }
      // Main's load read other source snapshots than the second run: comparing them says nothing
      // about reproducibility. Compare two fresh runs instead.
      ScratchResult third = scratch(request, scratch);
      Map<String, Long> thirdRead = readExactly(request.catalog(), third);
      if (secondRead == null || !secondRead.equals(thirdRead)) {
        return new SampleCheck(
            sample.value(),
            first,
            main.content().encode(),
            second.content().encode(),
            false,
            "Cannot check the sample: its sources changed while it ran (snapshots read by the"
                + " second run: "
                + sources(secondRead)
                + ", by the third: "
                + sources(thirdRead)
                + "), so no two runs read the same data; run the backfill again when they stand"
                + " still",
            ExitCodes.UNEXPECTED);
      }
      if (!third.content().equals(second.content())) {
        return notReproducible(
            request,
            sample,
            first,
            main.content(),
            second.content(),
            "two runs into scratch branches from the same source snapshots wrote "
                + describe(second.content())
                + " and "
                + describe(third.content()));
      }
      // Reproducible, and main is stale: load the sample again, from what its sources hold now.
      SliceOutcome reloaded = runOnMain.apply(request);
      if (reloaded.failed()) {
        return failedOnMain(sample, reloaded, main.content(), second.content());
      }
      return new SampleCheck(
          sample.value(),
          reloaded,
          main.content().encode(),
          second.content().encode(),
          true,
          "reproducible: two runs into scratch branches from the same source snapshots wrote the"
              + " same "
              + describe(second.content())
              + "; main held "
              + describe(main.content())
              + " loaded from other source snapshots ("
              + sources(main.sourcesRead())
              + ", now "
              + sources(secondRead)
              + "), so the sample was loaded again",
          ExitCodes.OK);
    } catch (SampleRunFailed e) {
      return new SampleCheck(
          sample.value(),
          first,
          main.content().encode(),
          null,
          false,
          "the second run of the sample failed: " + JobFailures.firstLine(e.getMessage()),
          BackfillSlices.exitCode((RuntimeException) e.getCause()));
    } finally {
      scratch.forEach(run -> ScratchRun.drop(request.catalog(), run));
    }
  }

  /** One more run into its own scratch branch, remembered in {@code runs} to be dropped. */
  private static ScratchResult scratch(RunRequest request, List<ScratchResult> runs) {
    try {
      // Same code, same slice, a fresh read of the sources; never part of the backfill's lineage,
      // so main keeps exactly the commits of its loads.
      ScratchResult run =
          ScratchRun.run(request.withOptions(o -> o.backfillId(null).failAt(FailurePoint.NONE)));
      runs.add(run);
      return run;
    } catch (RuntimeException e) {
      throw new SampleRunFailed(e);
    }
  }

  private static SampleCheck failedOnMain(
      PlannedSlice sample, SliceOutcome run, ContentHash main, ContentHash second) {
    return new SampleCheck(
        sample.value(),
        run,
        main == null ? null : main.encode(),
        second == null ? null : second.encode(),
        false,
        "the sample slice failed, so no other slice was started: " + run.error(),
        run.exitCode());
  }

  private static SampleCheck notReproducible(
      RunRequest request,
      PlannedSlice sample,
      SliceOutcome first,
      ContentHash main,
      ContentHash second,
      String what) {
    return new SampleCheck(
        sample.value(),
        first,
        main.encode(),
        second.encode(),
        false,
        "NOT reproducible: "
            + what
            + "; `floe verify "
            + ShellWord.of(request.job().source())
            + " --slice "
            + sample.value()
            + "` shows which rows and columns differ",
        ExitCodes.CHECK_FAILED);
  }

  /** E.g. {@code {sales.staging_orders=123}}; {@code unknown} when not exact. */
  private static String sources(Map<String, Long> read) {
    return read == null ? "unknown" : read.toString();
  }

  private static String describe(ContentHash content) {
    return content.rows() + " rows (content hash " + content.encode() + ")";
  }

  /**
   * The source snapshots a finished scratch run read, when they are exact: every source it recorded
   * is still at the snapshot it planned with, so it read exactly that. Null when a source moved
   * (the run may have read a later snapshot) or cannot be loaded.
   */
  private static Map<String, Long> readExactly(CatalogConfig config, ScratchResult run) {
    Map<String, Long> planned = run.run().sourceSnapshots();
    Catalog catalog = Catalogs.open(config);
    try {
      for (Map.Entry<String, Long> source : planned.entrySet()) {
        Snapshot now = Catalogs.loadTable(catalog, source.getKey()).currentSnapshot();
        if (now == null || now.snapshotId() != source.getValue()) {
          return null;
        }
      }
      return Map.copyOf(planned);
    } catch (FloeException | NoSuchTableException e) {
      return null;
    } finally {
      Catalogs.close(catalog);
    }
  }

  /**
   * The sample slice on main: its content, read from the table's files, and the source snapshots of
   * the Floe load it holds ({@link CurrentCommit}), or null when they are not exact (another writer
   * changed the slice, or the sources moved while that load ran).
   */
  private record MainContent(ContentHash content, Map<String, Long> sourcesRead) {}

  private static MainContent mainContent(RunRequest request) {
    Catalog catalog = Catalogs.open(request.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, request.job().target());
      Snapshot head = table.currentSnapshot();
      if (head == null) {
        return new MainContent(ContentHash.empty(), null);
      }
      Scope scope =
          Scope.of(
              SliceResolver.resolve(
                  request.job().target(),
                  table,
                  request.job().sliceColumn(),
                  request.sliceValue()));
      ContentHash content = TableContent.hash(table, head.snapshotId(), scope.toExpression());
      Map<String, Long> read =
          CurrentCommit.of(table, scope)
              .map(CurrentCommit.Found::lineage)
              .filter(lineage -> lineage.sourceSnapshotsUntil().isEmpty())
              .map(Lineage::sourceSnapshots)
              .map(Map::copyOf)
              .orElse(null);
      return new MainContent(content, read);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** A scratch run that failed; its cause is what the run threw. */
  private static final class SampleRunFailed extends RuntimeException {
    SampleRunFailed(RuntimeException cause) {
      super(cause.getMessage(), cause);
    }
  }
}
