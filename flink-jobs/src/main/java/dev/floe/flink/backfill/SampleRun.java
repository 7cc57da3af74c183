package dev.floe.flink.backfill;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.SliceResolver;
import dev.floe.flink.job.JobFailures;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.ScratchResult;
import dev.floe.flink.job.ScratchRun;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Validates one partition end to end before launching the others (the backfill checklist): the
 * sample slice runs on main like every slice, then once more into a scratch branch, and both
 * contents must hash the same. A failing run or a different second result stops the backfill before
 * it touches another slice.
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
    SliceOutcome first =
        sample.isFinished() ? BackfillSlices.skipped(sample) : runOnMain.apply(request);
    if (first.failed()) {
      return new SampleCheck(
          sample.value(),
          first,
          null,
          null,
          false,
          "the sample slice failed, so no other slice was started: " + first.error(),
          first.exitCode());
    }
    ContentHash onMain = mainContent(request);
    ScratchResult second;
    try {
      // The second run proves the first: same code, same source snapshot, same content. It goes
      // to a scratch branch, so main keeps exactly one commit of the sample.
      second = ScratchRun.run(request.withBackfillId(null).withFailAt(FailurePoint.NONE));
    } catch (RuntimeException e) {
      return new SampleCheck(
          sample.value(),
          first,
          onMain.encode(),
          null,
          false,
          "the second run of the sample failed: " + JobFailures.firstLine(e.getMessage()),
          BackfillSlices.exitCode(e));
    }
    try {
      boolean same = second.content().equals(onMain);
      return new SampleCheck(
          sample.value(),
          first,
          onMain.encode(),
          second.content().encode(),
          same,
          same
              ? "reproducible: a second run into a scratch branch wrote the same "
                  + onMain.rows()
                  + " rows (content hash "
                  + onMain.encode()
                  + ")"
              : "NOT reproducible: main holds "
                  + onMain.rows()
                  + " rows (content hash "
                  + onMain.encode()
                  + "), a second run wrote "
                  + second.content().rows()
                  + " rows (content hash "
                  + second.content().encode()
                  + "); `floe verify "
                  + request.job().source()
                  + " --slice "
                  + sample.value()
                  + "` shows which rows and columns differ",
          same ? ExitCodes.OK : ExitCodes.CHECK_FAILED);
    } finally {
      ScratchRun.drop(request.catalog(), second);
    }
  }

  private static ContentHash mainContent(RunRequest request) {
    Catalog catalog = Catalogs.open(request.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, request.job().target());
      Snapshot head = table.currentSnapshot();
      if (head == null) {
        return ContentHash.empty();
      }
      return TableContent.hash(
          table,
          head.snapshotId(),
          SliceResolver.resolve(
                  request.job().target(), table, request.job().sliceColumn(), request.sliceValue())
              .toExpression());
    } finally {
      Catalogs.close(catalog);
    }
  }
}
