package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.report.LineageCommits;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.TableRows;
import java.time.LocalDate;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A JDBC catalog's commit whose answer is lost after it took effect, as Iceberg's connection pool
 * makes it (the UPDATE runs again on a new connection, matches no row, and Iceberg reports the
 * commit failed): through {@link Catalogs#loadTable} the commit is found and stands, once, and the
 * table stays readable. Simulated here beneath the check; JdbcLostCommitAnswerITCase drops a real
 * PostgreSQL answer.
 */
class LostAnswerCheckTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;

  @BeforeEach
  void aTableWithOneDay() {
    table = LineageCommits.create(catalog.catalog(), "s.t", Map.of());
    TableRows.append(table, row(1, "2026-10-01"));
  }

  @Test
  void theCatalogLoadsJdbcTablesWithTheCheck() {
    Table loaded = Catalogs.loadTable(catalog.catalog(), "s.t");

    assertThat(((HasTableOperations) loaded).operations()).isInstanceOf(LostAnswerCheck.class);
  }

  @Test
  void anOverwriteWhoseAnswerWasLostStandsOnceAndTheTableStaysReadable() throws Exception {
    Table checked = LostAnswerCheck.wrap(InterceptedTable.answersLost(table, answerLost()));
    long before = table.currentSnapshot().snapshotId();

    checked
        .newOverwrite()
        .overwriteByRowFilter(Expressions.equal("d", "2026-10-02"))
        .addFile(TableRows.write(table, row(2, "2026-10-02")))
        .validateFromSnapshot(before)
        .validateNoConflictingData()
        .conflictDetectionFilter(Expressions.equal("d", "2026-10-02"))
        .commit();

    table.refresh();
    assertThat(table.currentSnapshot().parentId()).isEqualTo(before);
    try (CloseableIterable<FileScanTask> files = table.newScan().planFiles()) {
      assertThat(files).hasSize(2);
    }
  }

  @Test
  void aTagWhoseAnswerWasLostStands() {
    Table checked = LostAnswerCheck.wrap(InterceptedTable.answersLost(table, answerLost()));
    long head = table.currentSnapshot().snapshotId();

    checked.manageSnapshots().createTag("month-end", head).commit();

    table.refresh();
    assertThat(table.refs().get("month-end").snapshotId()).isEqualTo(head);
  }

  @Test
  void aCommitThatDidNotLandStillFailsAsIcebergSaysAndChangesNothing() {
    long head = table.currentSnapshot().snapshotId();
    Table checked = LostAnswerCheck.wrap(conflicting(table));

    assertThatThrownBy(
            () ->
                checked
                    .newOverwrite()
                    .overwriteByRowFilter(Expressions.equal("d", "2026-10-01"))
                    .addFile(TableRows.write(table, row(3, "2026-10-01")))
                    .validateFromSnapshot(head)
                    .validateNoConflictingData()
                    .conflictDetectionFilter(Expressions.equal("d", "2026-10-01"))
                    .commit())
        .isInstanceOf(ValidationException.class);

    table.refresh();
    assertThat(table.snapshots()).hasSize(2); // the first day and the other writer's append
  }

  @Test
  void aRestCommitThatGotNoAnswerIsUnknownAndIcebergKeepsItsFiles() throws Exception {
    // What Iceberg's REST client throws when the catalog stops answering a commit's POST.
    RuntimeException noAnswer =
        new org.apache.iceberg.exceptions.RESTException(
            new java.net.SocketTimeoutException("Read timed out"),
            "Error occurred while processing %s request",
            "POST");
    Table checked = LostAnswerCheck.wrap(InterceptedTable.commitsFail(table, noAnswer));
    long manifestsBefore = manifestFiles();

    assertThatThrownBy(
            () ->
                checked
                    .newAppend()
                    .appendFile(TableRows.write(table, row(5, "2026-10-05")))
                    .commit())
        .isInstanceOf(org.apache.iceberg.exceptions.CommitStateUnknownException.class);

    // The catalog may still apply it: its manifest list and manifest stay for it to point at.
    assertThat(manifestFiles()).isEqualTo(manifestsBefore + 2);
  }

  private long manifestFiles() throws java.io.IOException {
    java.nio.file.Path metadata = Catalogs.localPath(table.location()).resolve("metadata");
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(metadata)) {
      return files.filter(f -> f.toString().endsWith(".avro")).count();
    }
  }

  private Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }

  /** What Iceberg's JDBC operations throw when the pool's second run of the UPDATE finds no row. */
  private static CommitFailedException answerLost() {
    return new CommitFailedException("Failed to update table s.t from catalog floe");
  }

  /** {@code table} whose first commit finds another writer's append of the same day first. */
  private Table conflicting(Table table) {
    return InterceptedTable.beforeEachCommit(
        table,
        attempt -> {
          if (attempt == 0) {
            TableRows.append(
                catalog.catalog().loadTable(TableIdentifier.parse("s.t")), row(4, "2026-10-01"));
            throw new CommitFailedException("Cannot commit: the table moved on");
          }
        });
  }
}
