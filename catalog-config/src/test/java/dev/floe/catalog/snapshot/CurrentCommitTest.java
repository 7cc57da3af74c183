package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Which Floe commit a slice's content on main comes from: what effect recovery trusts. */
class CurrentCommitTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theNewestCommitOfTheSliceIsFoundPastCommitsOfOtherSlices() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    long day3 = LineageCommits.load(table, "2026-10-03", "run-3", "orders", null, 2);
    LineageCommits.load(table, "2026-10-04", "run-4", "orders", null, 1);

    CurrentCommit.Found found =
        CurrentCommit.of(table, Scope.of(LineageCommits.day("2026-10-03"))).orElseThrow();

    assertThat(found.snapshotId()).isEqualTo(day3);
    assertThat(found.lineage().runId()).isEqualTo("run-3");
    assertThat(found.lineage().runKey()).isEqualTo("key-orders-2026-10-03");
  }

  @Test
  void anotherWriterOrARevertAfterTheCommitMeansNoFloeRunOwnsTheContent() {
    Table table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(table, "2026-10-03", "run-3", "orders", null, 2);
    LineageCommits.append(table, "2026-10-03", 1); // a foreign writer adds a row to the day

    assertThat(CurrentCommit.of(table, Scope.of(LineageCommits.day("2026-10-03")))).isEmpty();

    LineageCommits.load(table, "2026-10-03", "run-5", "orders", null, 2);
    LineageCommits.revert(table, "2026-10-03", "run-5", 2);

    assertThat(CurrentCommit.of(table, Scope.of(LineageCommits.day("2026-10-03"))).orElseThrow())
        .satisfies(found -> assertThat(found.lineage().runId()).isEqualTo("revert-of-run-5"));
  }
}
