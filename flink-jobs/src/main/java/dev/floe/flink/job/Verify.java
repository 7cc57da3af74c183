package dev.floe.flink.job;

import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentDiff;
import dev.floe.catalog.lineage.ContentDifference;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.slice.Scope;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.expressions.Expression;

/**
 * The idempotency proof for one slice ({@code floe verify}): runs the job twice, each time into its
 * own scratch branch ({@link ScratchRun}), compares the two content hashes, and compares them with
 * the slice's content on main. Main is never moved; both scratch branches are dropped before this
 * returns, also when a run fails.
 */
public final class Verify {

  private Verify() {}

  /**
   * @param request the run to verify: catalog, manifest, slice and parallelism are used; its
   *     publish mode and force flag are replaced by {@link ScratchRun}'s
   * @return the three hashes and the differences; see {@link VerifyResult#requireReproducible()}
   */
  public static VerifyResult run(RunRequest request) {
    return run(request, request);
  }

  /** Tests: the second run may differ from the first, e.g. by an injected failure. */
  static VerifyResult run(RunRequest request, RunRequest secondRun) {
    long started = System.nanoTime(); // timing for the report only
    List<ScratchResult> runs = new ArrayList<>();
    RuntimeException failure = null;
    try {
      runs.add(ScratchRun.run(request));
      runs.add(ScratchRun.run(secondRun));
      return compare(request, runs.get(0), runs.get(1), started);
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      dropAll(request, runs, failure);
    }
  }

  private static VerifyResult compare(
      RunRequest request, ScratchResult first, ScratchResult second, long started) {
    Catalog catalog = Catalogs.open(request.catalog());
    try {
      Table table = Catalogs.loadTable(catalog, request.job().target());
      Scope scope = ScratchRun.scope(table, request);
      Expression filter = scope.toExpression();
      Snapshot head = table.currentSnapshot();
      Long mainId = head == null ? null : head.snapshotId();
      ContentHash main =
          mainId == null ? ContentHash.empty() : TableContent.hash(table, mainId, filter);
      boolean reproducible = first.content().equals(second.content());
      ContentDifference runs =
          reproducible
              ? null
              : ContentDiff.compare(table, first.snapshotId(), second.snapshotId(), filter);
      ContentDifference onMain =
          main.equals(first.content())
              ? null
              : ContentDiff.compare(table, mainId, first.snapshotId(), filter);
      return new VerifyResult(
          request.job().job(),
          request.job().target(),
          request.job().mode().text(),
          scope.label(),
          first,
          second,
          mainId,
          main,
          runs,
          onMain,
          (System.nanoTime() - started) / 1_000_000);
    } finally {
      Catalogs.close(catalog);
    }
  }

  /** Drops every scratch branch; a failed drop never hides the verify's own failure. */
  private static void dropAll(
      RunRequest request, List<ScratchResult> runs, RuntimeException failure) {
    RuntimeException dropFailed = null;
    for (ScratchResult run : runs) {
      try {
        ScratchRun.drop(request.catalog(), run);
      } catch (RuntimeException e) {
        if (failure != null) {
          failure.addSuppressed(e);
        } else if (dropFailed == null) {
          dropFailed = e;
        } else {
          dropFailed.addSuppressed(e);
        }
      }
    }
    if (dropFailed != null) {
      throw dropFailed;
    }
  }
}
