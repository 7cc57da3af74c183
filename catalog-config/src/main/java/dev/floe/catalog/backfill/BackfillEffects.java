package dev.floe.catalog.backfill;

import java.util.List;

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

  /** The outbox key: once per backfill, however often it is resumed or repeated. */
  public static String outboxKey(String backfillId) {
    return "backfill:" + backfillId;
  }
}
