package dev.floe.catalog.backfill;

import dev.floe.catalog.lineage.RunKey;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** What a backfill's {@code on_backfill_done} webhooks can say, and the key they are sent under. */
public final class BackfillEffects {
  /** The variables a body may reference. */
  public static final List<String> VARIABLES =
      List.of(
          "backfill_id",
          "job",
          "target",
          "mode",
          "from",
          "to",
          "slices",
          "committed",
          "skipped",
          "rows",
          "code_version");

  private BackfillEffects() {}

  /**
   * The outbox key of one completed state of the range: the backfill id and the snapshots that hold
   * its loads. Resuming or repeating a finished backfill finds the same loads and sends nothing
   * more; the same backfill loading the range again (after a rollback, say) is news for downstream
   * and is sent again.
   *
   * @param loads one entry per slice loaded by the backfill, e.g. {@code <slice>@<snapshot id>}
   */
  public static String outboxKey(String backfillId, Collection<String> loads) {
    String state =
        RunKey.of(backfillId, "", "", String.join("\n", new TreeSet<>(loads)), "").substring(0, 12);
    return "backfill:" + backfillId + ":" + state;
  }
}
