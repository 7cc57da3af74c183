package dev.floe.it.races;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.snapshot.Rollback;
import dev.floe.catalog.testing.TableRows;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The narrow end of scenario 3b (RunVersusOperationITCase), made deterministic: another process's
 * commit lands after `floe rollback` checked that the head is still the one it planned on, and
 * before its metadata commit. Between bin/floe processes the window is a few milliseconds, so the
 * process race rarely hits it; here the other commit is made when the rollback asks the table for
 * its snapshot update (right after the check), through a second handle on the same embedded
 * (SQLite) catalog, as the other process would.
 */
class RollbackCommitWindowTest {
  @TempDir Path home;

  @Test
  @Disabled(
      "Bug: a commit that lands between Rollback's head check (RollbackCommit.prepare) and its"
          + " manageSnapshots() commit is discarded silently: Iceberg's snapshot-manager"
          + " transaction refreshes and re-applies rollbackTo on the new head, so the rollback"
          + " exits 0, main moves to the target, the floe-before-rollback tag keeps the planned"
          + " head (not the commit that landed), and that commit - a run that exited 0 - is on no"
          + " branch or tag (expiry deletes it). findCommitted (head == target && tag == planned"
          + " head) cannot tell.")
  void aCommitLandingDuringARollbackIsRefusedOrKeptReachable() throws Exception {
    Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    try {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("sales"));
      Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
      TableIdentifier name = TableIdentifier.of("sales", "t");
      Table table = catalog.createTable(name, schema);
      TableRows.append(table, TableRows.row(table, Map.of("id", 1L)));
      long runA = table.currentSnapshot().snapshotId();
      TableRows.append(table, TableRows.row(table, Map.of("id", 2L)));
      Table otherProcess = catalog.loadTable(name);
      long[] runC = {0};
      Table racing =
          (Table)
              Proxy.newProxyInstance(
                  Table.class.getClassLoader(),
                  new Class<?>[] {Table.class},
                  (proxy, method, args) -> {
                    if (method.getName().equals("manageSnapshots") && runC[0] == 0) {
                      otherProcess.refresh();
                      TableRows.append(otherProcess, TableRows.row(otherProcess, Map.of("id", 3L)));
                      runC[0] = otherProcess.currentSnapshot().snapshotId();
                    }
                    try {
                      return method.invoke(table, args);
                    } catch (InvocationTargetException e) {
                      throw e.getCause();
                    }
                  });

      Throwable refused = null;
      try {
        Rollback.of(racing, "sales.t").toSnapshot(runA).commit();
      } catch (RuntimeException e) {
        refused = e;
      }

      Table now = catalog.loadTable(name);
      boolean reachable = false;
      for (SnapshotRef ref : now.refs().values()) {
        reachable |= SnapshotUtil.isAncestorOf(now, ref.snapshotId(), runC[0]);
      }
      assertThat(runC[0]).isNotZero();
      assertThat(refused != null || reachable)
          .as(
              "the rollback exited 0 and run C's snapshot %d is on no branch or tag: %s",
              runC[0], now.refs())
          .isTrue();
    } finally {
      Catalogs.close(catalog);
    }
  }
}
