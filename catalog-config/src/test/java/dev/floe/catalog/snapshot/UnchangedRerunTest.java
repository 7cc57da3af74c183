package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * When a run may end as a no-op without starting its job: only when the commit holding its slice
 * came from the same intent over the same source snapshots into the same schema, and nothing
 * changed a source since its pinned snapshot.
 */
class UnchangedRerunTest {
  private static final String KEY = "key-orders-2026-10-03";
  private static final Scope DAY = Scope.of(LineageCommits.day("2026-10-03"));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theSameKeyAndSourcesFindTheCommitThatHoldsTheSlice() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    long day3 = LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    LineageCommits.load(target, "2026-10-04", "run-2", "orders", source, 1);

    assertThat(find(target, KEY, sources(source)))
        .hasValueSatisfying(found -> assertThat(found.snapshotId()).isEqualTo(day3));
  }

  @Test
  void anotherKeyOrOtherSourcesMeanTheJobRuns() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    Map<String, Long> read = sources(source);

    assertThat(find(target, "key-other", read)).isEmpty();
    assertThat(find(target, KEY, Map.of())).isEmpty();
    LineageCommits.append(source, "2026-10-03", 1);
    assertThat(find(target, KEY, sources(source))).isEmpty();
    assertThat(find(target, KEY, read)).as("the pinned snapshot is no longer current").isEmpty();
  }

  @Test
  void anotherWriterInTheSliceMeansTheJobRuns() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    assertThat(find(target, KEY, sources(source))).isPresent();

    LineageCommits.append(target, "2026-10-03", 1); // a foreign writer adds a row to the day

    assertThat(find(target, KEY, sources(source))).isEmpty();
  }

  @Test
  void aColumnAddedToTheTargetSinceTheCommitMeansTheJobRuns() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);

    target.updateSchema().addColumn("note", Types.StringType.get()).commit();

    assertThat(find(target, KEY, sources(source))).isEmpty();
  }

  @Test
  void aSourceChangedWithoutANewSnapshotMeansTheJobRuns() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    Map<String, Long> read = sources(source);
    assertThat(find(target, KEY, read)).isPresent();

    // A rename reads the same snapshot's files differently, and leaves its snapshot id alone.
    source.updateSchema().renameColumn("id", "order_id").commit();
    source.updateSchema().renameColumn("order_id", "id").commit();

    assertThat(sources(source)).isEqualTo(read);
    assertThat(find(target, KEY, read)).isEmpty();
  }

  @Test
  void aSourceSchemaChangedAndRolledBackToTheSnapshotReadMeansTheJobRuns() {
    Table source = source();
    Table target = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    LineageCommits.load(target, "2026-10-03", "run-1", "orders", source, 3);
    Map<String, Long> read = sources(source);

    // The last change makes the snapshot read current again, but under another schema.
    source.updateSchema().addColumn("note", Types.StringType.get()).commit();
    LineageCommits.append(source, "2026-10-04", 1);
    source.manageSnapshots().rollbackTo(read.get("s.src")).commit();

    assertThat(sources(source)).isEqualTo(read);
    assertThat(find(target, KEY, read)).isEmpty();
  }

  private Optional<CurrentCommit.Found> find(Table target, String key, Map<String, Long> sources) {
    return UnchangedRerun.find(
        target,
        DAY,
        key,
        sources,
        name -> catalog.catalog().loadTable(TableIdentifier.parse(name)));
  }

  private Table source() {
    Table source = LineageCommits.create(catalog.catalog(), "s.src", Map.of());
    LineageCommits.append(source, "2026-10-03", 3);
    source.refresh();
    return source;
  }

  private static Map<String, Long> sources(Table source) {
    source.refresh();
    return Map.of("s.src", source.currentSnapshot().snapshotId());
  }
}
