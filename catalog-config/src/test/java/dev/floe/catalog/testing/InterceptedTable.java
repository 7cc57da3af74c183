package dev.floe.catalog.testing;

import java.util.function.Function;
import java.util.function.IntConsumer;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;

/**
 * A table whose commits and file deletions a test steps into: another writer landing right before a
 * commit, a commit whose answer is lost, storage that refuses to delete. Everything else is the
 * table's own.
 */
public final class InterceptedTable {

  private InterceptedTable() {}

  /** {@code table}, calling {@code beforeCommit} with the attempt's index (0, 1, ...) first. */
  public static Table beforeEachCommit(Table table, IntConsumer beforeCommit) {
    int[] attempts = {0};
    return wrap(
        table, new Hooks(() -> beforeCommit.accept(attempts[0]++), null, null, null, null, false));
  }

  /**
   * {@code table}, calling {@code afterCommit} with the attempt's index once each commit has taken
   * effect (what another process does right after it, before the committer looks again).
   */
  public static Table afterEachCommit(Table table, IntConsumer afterCommit) {
    int[] attempts = {0};
    return wrap(
        table, new Hooks(null, null, null, null, () -> afterCommit.accept(attempts[0]++), false));
  }

  /**
   * {@code table} on a catalog that, as Iceberg's REST catalog for a change of properties, asserts
   * nothing of the metadata the change was made on: each commit's changes are applied to the
   * table's latest metadata, also when another commit landed since {@code base}.
   */
  public static Table restCommits(Table table) {
    return wrap(table, new Hooks(null, null, null, null, null, true));
  }

  /** {@code table}, whose every commit throws {@code failure} instead of reaching the catalog. */
  public static Table commitsFail(Table table, RuntimeException failure) {
    return wrap(table, new Hooks(null, failure, null, null, null, false));
  }

  /**
   * {@code table}, whose every commit reaches the catalog and takes effect, and then throws {@code
   * failure}: the catalog's answer was lost.
   */
  public static Table answersLost(Table table, RuntimeException failure) {
    return wrap(table, new Hooks(null, null, null, failure, null, false));
  }

  /** {@code table}, whose file deletions throw what {@code failure} makes of the location. */
  public static Table deletesFail(Table table, Function<String, RuntimeException> failure) {
    return wrap(table, new Hooks(null, null, failure, null, null, false));
  }

  private record Hooks(
      Runnable beforeCommit,
      RuntimeException commitFailure,
      Function<String, RuntimeException> deleteFailure,
      RuntimeException lostAnswer,
      Runnable afterCommit,
      boolean onLatest) {}

  private static Table wrap(Table table, Hooks hooks) {
    TableOperations real = ((HasTableOperations) table).operations();
    FileIO io =
        hooks.deleteFailure() == null
            ? real.io()
            : new FileIO() {
              @Override
              public InputFile newInputFile(String path) {
                return real.io().newInputFile(path);
              }

              @Override
              public OutputFile newOutputFile(String path) {
                return real.io().newOutputFile(path);
              }

              @Override
              public void deleteFile(String path) {
                throw hooks.deleteFailure().apply(path);
              }
            };
    TableOperations ops =
        new TableOperations() {
          @Override
          public TableMetadata current() {
            return real.current();
          }

          @Override
          public TableMetadata refresh() {
            return real.refresh();
          }

          @Override
          public void commit(TableMetadata base, TableMetadata metadata) {
            if (hooks.beforeCommit() != null) {
              hooks.beforeCommit().run();
            }
            if (hooks.commitFailure() != null) {
              throw hooks.commitFailure();
            }
            if (hooks.onLatest()) {
              TableMetadata latest = real.refresh();
              TableMetadata.Builder builder = TableMetadata.buildFrom(latest);
              metadata.changes().forEach(change -> change.applyTo(builder));
              real.commit(latest, builder.build());
            } else {
              real.commit(base, metadata);
            }
            if (hooks.afterCommit() != null) {
              hooks.afterCommit().run();
            }
            if (hooks.lostAnswer() != null) {
              throw hooks.lostAnswer();
            }
          }

          @Override
          public FileIO io() {
            return io;
          }

          @Override
          public String metadataFileLocation(String fileName) {
            return real.metadataFileLocation(fileName);
          }

          @Override
          public LocationProvider locationProvider() {
            return real.locationProvider();
          }
        };
    return new BaseTable(ops, table.name());
  }
}
