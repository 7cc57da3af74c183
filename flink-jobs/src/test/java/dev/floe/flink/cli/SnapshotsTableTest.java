package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.snapshot.SnapshotEntry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The text table of `floe snapshots` marks the current snapshot and those off main's history. */
class SnapshotsTableTest {
  private static final SnapshotEntry CURRENT =
      new SnapshotEntry(2L, 1L, 2_000L, "overwrite", true, true, 2, 0, 2L, Optional.empty(), null);
  private static final SnapshotEntry ROLLED_BACK =
      new SnapshotEntry(
          3L, 2L, 3_000L, "overwrite", false, false, 1, 0, 1L, Optional.empty(), null);
  private static final SnapshotEntry ANCESTOR =
      new SnapshotEntry(
          1L, null, 1_000L, "append", false, true, 1, 0, null, Optional.empty(), null);

  @Test
  void aSnapshotOffMainIsMarkedAndTheFooterSaysWhatTheMarkMeans() {
    String text = render(List.of(ROLLED_BACK, CURRENT, ANCESTOR));

    assertThat(text).containsPattern("(?m)^3 ~ ").containsPattern("(?m)^2 \\* ");
    assertThat(text).containsPattern("(?m)^1 +\\|");
    assertThat(text)
        .endsWith(
            "* = current snapshot; ~ = not in main's history (rolled back, or on a branch)\n");
  }

  @Test
  void aSnapshotOlderThanAnExpiryThatCutMainsHistoryIsMarkedUnknown() {
    SnapshotEntry tagged =
        new SnapshotEntry(0L, null, 500L, "append", false, null, 1, 0, 1L, Optional.empty(), null);

    String text = render(List.of(CURRENT, tagged));

    assertThat(text).containsPattern("(?m)^0 \\? ");
    assertThat(text)
        .endsWith(
            "* = current snapshot; ? = older than where an expiry cut main's history: whether"
                + " main held it is unknown\n");
  }

  @Test
  void withEverySnapshotOnMainTheFooterNamesOnlyTheCurrentOne() {
    assertThat(render(List.of(CURRENT, ANCESTOR))).endsWith("* = current snapshot\n");
  }

  private static String render(List<SnapshotEntry> entries) {
    StringWriter text = new StringWriter();
    SnapshotsCommand.printTable(entries, new PrintWriter(text, true), "");
    return text.toString();
  }
}
