package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * When a run may end as a no-op without starting its job: only when the commit holding its slice
 * came from the same intent over the same source snapshots into the same schema.
 */
class UnchangedRerunTest {
  private static final String KEY = "key-orders-2026-10-03";
  private static final Scope DAY = Scope.of(LineageCommits.day("2026-10-03"));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theSameKeyAndSourcesFindTheCommitThatHoldsTheSlice() {
    Table source = LineageCommits.create(catalog.catalog(), "s.src", Map.of());
    LineageCommits.append(source, "2026-10-03", 3);
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    long day3 = LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    LineageCommits.load(target, "2026-10-04", "run-2", "orders", source, 1);

    assertThat(UnchangedRerun.find(target, DAY, KEY, sources(source)))
        .hasValueSatisfying(found -> assertThat(found.snapshotId()).isEqualTo(day3));
  }

  @Test
  void aNewSourceSnapshotAnotherKeyOrAnotherWriterMeansTheJobRuns() {
    Table source = LineageCommits.create(catalog.catalog(), "s.src", Map.of());
    LineageCommits.append(source, "2026-10-03", 3);
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    Map<String, Long> read = sources(source);

    assertThat(UnchangedRerun.find(target, DAY, "key-other", read)).isEmpty();
    LineageCommits.append(source, "2026-10-03", 1);
    assertThat(UnchangedRerun.find(target, DAY, KEY, sources(source))).isEmpty();
    assertThat(UnchangedRerun.find(target, DAY, KEY, Map.of())).isEmpty();

    assertThat(UnchangedRerun.find(target, DAY, KEY, read)).isPresent();
    LineageCommits.append(target, "2026-10-03", 1); // a foreign writer adds a row to the day
    assertThat(UnchangedRerun.find(target, DAY, KEY, read)).isEmpty();
  }

  @Test
  void aColumnAddedSinceTheCommitMeansTheJobRuns() {
    Table source = LineageCommits.create(catalog.catalog(), "s.src", Map.of());
    LineageCommits.append(source, "2026-10-03", 3);
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);

    target.updateSchema().addColumn("note", Types.StringType.get()).commit();

    assertThat(UnchangedRerun.find(target, DAY, KEY, sources(source))).isEmpty();
  }

  private static Map<String, Long> sources(Table source) {
    source.refresh();
    return Map.of("s.src", source.currentSnapshot().snapshotId());
  }
}
