package dev.floe.catalog.commit;

import dev.floe.catalog.error.CommitConflictException;
import org.apache.iceberg.Table;

/**
 * The target's schema did not change while a run wrote its files, checked before each commit
 * attempt.
 *
 * <p>A run's writers write with the schema the run was planned with; Iceberg commits their files
 * under whatever schema is current then, and records that one on the snapshot. A column dropped and
 * added again meanwhile (a new field id) would read NULL in every row the run wrote while the
 * commit's content hash, recorded under the new schema, still vouched for the values: the slice
 * would lose them silently and an unchanged rerun would be skipped as a no-op. The run stops
 * instead (exit 4), nothing committed, and its rerun writes with the current schema.
 */
public final class WriteSchema {

  private WriteSchema() {}

  /**
   * @param table the target, refreshed for this attempt
   * @param writtenWith the id of the schema the run's files were written with
   * @param subject what the run commits, for messages
   * @throws CommitConflictException when the table's current schema is another one
   */
  public static void requireCurrent(Table table, int writtenWith, String subject) {
    int current = table.schema().schemaId();
    if (current != writtenWith) {
      throw new CommitConflictException(
          String.format(
              "Cannot commit %s: the table's schema changed while the run wrote its files (schema"
                  + " id %d when planned, %d now); nothing was committed, rerun to write with the"
                  + " current schema",
              subject, writtenWith, current));
    }
  }
}
