package dev.floe.catalog.spec;

import dev.floe.catalog.error.CommitConflictException;
import dev.floe.catalog.error.InvalidInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Makes the catalog match a set of table specs: {@code floe tables apply}. Like Iceberg's {@code
 * PendingUpdate}, {@link #apply()} computes the plan without changing anything ({@code --dry-run})
 * and {@link #commit()} persists it.
 *
 * <p>Rerun-safe: once the catalog matches the specs, the plan is empty and commit writes nothing
 * (no metadata file, no snapshot). Compatible changes are made (new optional columns, widening,
 * required to optional, docs, key, spec properties); destructive ones are refused unless an option
 * allows them, and data-losing ones always. A refusal anywhere stops the whole apply before any
 * table is changed.
 *
 * <pre>{@code
 * TableSpecApplier applier = new TableSpecApplier(catalog, TableSpecLoader.load(dir))
 *     .allowDropColumns(allowDrop);
 * ApplyPlan plan = dryRun ? applier.apply() : applier.commit();
 * plan.describe().forEach(System.out::println);
 * }</pre>
 */
public final class TableSpecApplier {
  /** The CLI option that allows dropping columns a spec no longer declares. */
  public static final String ALLOW_DROP_COLUMNS = "--allow-drop-columns";

  /** The CLI option that allows repartitioning a table that holds data. */
  public static final String ALLOW_REPARTITION = "--allow-repartition";

  /** The Iceberg format version of tables Floe creates (row-level deletes for merge). */
  public static final int FORMAT_VERSION = 2;

  private final Catalog catalog;
  private final List<TableSpec> specs;
  private boolean allowDropColumns;
  private boolean allowRepartition;

  /**
   * @param catalog the catalog to change; namespaces are created only when it is also a {@link
   *     SupportsNamespaces}
   * @param specs one spec per table
   * @throws InvalidInputException when two specs declare the same table
   */
  public TableSpecApplier(Catalog catalog, List<TableSpec> specs) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.specs = List.copyOf(specs);
    Map<String, String> sourceByTable = new HashMap<>();
    for (TableSpec spec : this.specs) {
      String earlier = sourceByTable.putIfAbsent(spec.table(), spec.source());
      if (earlier != null) {
        throw InvalidInputException.of(
            "Cannot apply table specs: table %s is declared twice, in %s and in %s",
            spec.table(), earlier, spec.source());
      }
    }
  }

  /** Allows dropping columns (required ones too) that are in a table but not in its spec. */
  public TableSpecApplier allowDropColumns(boolean allow) {
    this.allowDropColumns = allow;
    return this;
  }

  /** Allows changing the partitioning of tables that hold data; empty tables never need it. */
  public TableSpecApplier allowRepartition(boolean allow) {
    this.allowRepartition = allow;
    return this;
  }

  /**
   * Computes what {@link #commit()} would do, without changing the catalog. Refusals do not throw
   * here: they are in the plan, so a dry run can show all of them at once.
   */
  public ApplyPlan apply() {
    return new ApplyPlan(plan().stream().map(Planned::plan).toList());
  }

  /**
   * Plans, then applies the plan: creates missing namespaces and tables, and evolves existing
   * tables, one transaction per table. Every table's changes are staged and validated before the
   * first one is persisted. An empty plan persists nothing.
   *
   * @return the plan that was applied
   * @throws InvalidInputException when any change is refused, or Iceberg rejects a staged change;
   *     then no table was changed
   */
  public ApplyPlan commit() {
    List<Planned> planned = plan();
    ApplyPlan plan = new ApplyPlan(planned.stream().map(Planned::plan).toList());
    if (plan.hasRefusals()) {
      throw plan.refusalError();
    }
    List<Planned> changed = planned.stream().filter(p -> !p.plan().changes().isEmpty()).toList();
    List<Transaction> staged = new ArrayList<>();
    for (Planned table : changed) {
      // A new table is validated without the catalog: catalogs that place a table under its
      // namespace's location (Glue, Hive) cannot stage it before that namespace exists.
      staged.add(table.table() == null ? validateNew(table) : stageValidated(table));
    }
    List<Namespace> created = createNamespaces(planned);
    // Tables another process created meanwhile just as their spec says (two applies at once):
    // their goal is reached, nothing is left to do for them.
    Set<Integer> done = new HashSet<>();
    int staging = 0;
    try {
      for (; staging < changed.size(); staging++) {
        if (staged.get(staging) == null) {
          try {
            staged.set(staging, stageValidated(changed.get(staging)));
          } catch (AlreadyExistsException exists) {
            requireCreatedAsSpecified(changed.get(staging), exists);
            done.add(staging);
          }
        }
      }
    } catch (RuntimeException e) {
      // The catalog refused a new table (Glue: its name), or another process created it since
      // the plan: no table was changed, and no namespace made for it stays behind.
      dropIfEmpty(created);
      throw e;
    }
    // A failure past this point leaves earlier tables applied; rerunning applies the rest.
    List<String> applied = new ArrayList<>();
    for (int i = 0; i < changed.size(); i++) {
      if (done.contains(i)) {
        continue;
      }
      try {
        if (!commitAsPlanned(changed.get(i), staged.get(i))) {
          done.add(i);
          continue;
        }
      } catch (CommitConflictException e) {
        throw applied.isEmpty()
            ? e
            : new CommitConflictException(
                e.getMessage() + "; applied before it: " + String.join(", ", applied), e);
      }
      applied.add(changed.get(i).spec().table());
    }
    if (done.isEmpty()) {
      return plan;
    }
    Set<String> createdByOthers = new HashSet<>();
    done.forEach(i -> createdByOthers.add(changed.get(i).spec().table()));
    return new ApplyPlan(
        planned.stream()
            .map(Planned::plan)
            .map(
                p ->
                    createdByOthers.contains(p.table())
                        ? new TablePlan(
                            p.table(),
                            p.changes().stream()
                                .filter(c -> !(c instanceof TableChange.CreateTable))
                                .toList(),
                            p.refusals())
                        : p)
            .toList());
  }

  /**
   * A table planned as new that another process created since: fine when it is now just as its spec
   * says (nothing left to plan on it), else the conflict.
   */
  private void requireCreatedAsSpecified(Planned planned, AlreadyExistsException exists) {
    Table now = loadIfExists(planned.spec().identifier());
    // Nothing to change and nothing refused: a type it cannot widen or a column it may not drop
    // is a refusal, not a change.
    if (now == null
        || !TablePlanner.plan(
                planned.spec(), now, new ApplyOptions(allowDropColumns, allowRepartition))
            .isEmpty()) {
      throw createdMeanwhile(planned, exists);
    }
  }

  /**
   * Commits a table's staged change onto exactly the metadata it was planned on. A commit that
   * landed in between (rows appended, another apply) fails it, instead of Iceberg applying the
   * change again onto the newer table, which the plan's checks (the table held no rows, no written
   * file uses the dropped column) never saw. Iceberg's REST protocol asserts only what the change
   * touches (schema, spec), so a REST catalog still takes it over a newer snapshot.
   *
   * @return false when the table was new and another process created it as its spec says
   * @throws CommitConflictException when the table changed since it was planned
   */
  private boolean commitAsPlanned(Planned planned, Transaction transaction) {
    if (planned.table() == null) {
      try {
        transaction.commitTransaction();
      } catch (AlreadyExistsException e) {
        requireCreatedAsSpecified(planned, e);
        return false;
      }
      return true;
    }
    TableOperations ops = ((HasTableOperations) planned.table()).operations();
    // The transaction refreshed the table when it was staged: its base may already be newer than
    // what the plan saw.
    TableMetadata base = ops.current();
    TableMetadata updated = ((HasTableOperations) transaction.table()).operations().current();
    try {
      if (!Objects.equals(base.metadataFileLocation(), planned.plannedOn())) {
        throw new CommitFailedException(
            "its metadata is %s now, %s when planned",
            base.metadataFileLocation(), planned.plannedOn());
      }
      ops.commit(base, updated);
    } catch (CommitFailedException e) {
      throw new CommitConflictException(
          String.format(
              "Cannot apply the spec of %s (%s): the table changed since it was planned (%s);"
                  + " nothing of this spec was applied; run `floe tables apply` again to plan on"
                  + " the table as it is now",
              planned.spec().table(), planned.spec().source(), e.getMessage()),
          e);
    }
    return true;
  }

  /** A table planned as new that another process created since (two applies at once). */
  private static CommitConflictException createdMeanwhile(
      Planned planned, AlreadyExistsException e) {
    return new CommitConflictException(
        String.format(
            "Cannot apply the spec of %s (%s): the table was created by someone else since it was"
                + " planned; nothing of this spec was applied; run `floe tables apply` again to"
                + " plan on the table as it is now",
            planned.spec().table(), planned.spec().source()),
        e);
  }

  /**
   * One spec, its table as loaded (null when it does not exist yet), the metadata file the plan was
   * made on (null for a new table), the namespaces to create before it and its plan.
   */
  private record Planned(
      TableSpec spec,
      Table table,
      String plannedOn,
      List<Namespace> newNamespaces,
      TablePlan plan) {}

  private List<Planned> plan() {
    ApplyOptions options = new ApplyOptions(allowDropColumns, allowRepartition);
    Set<Namespace> plannedNamespaces = new HashSet<>();
    List<Planned> planned = new ArrayList<>();
    for (TableSpec spec : specs) {
      Table table = loadIfExists(spec.identifier());
      if (table != null) {
        String plannedOn =
            ((HasTableOperations) table).operations().current().metadataFileLocation();
        planned.add(
            new Planned(
                spec, table, plannedOn, List.of(), TablePlanner.plan(spec, table, options)));
      } else {
        // Several specs may share a new namespace; it is created once, before the first table.
        List<Namespace> missing;
        try {
          missing = missingNamespaces(spec.identifier().namespace());
        } catch (IllegalArgumentException | ValidationException e) {
          // The catalog refuses the name itself (Glue: lowercase letters, digits, '_'): a
          // refusal in the plan, so a dry run shows it and nothing is created.
          planned.add(refusedName(spec, "its namespace", e));
          continue;
        }
        try {
          // Only a builder (no table is created): the catalog's own check of the name, which
          // loading a table Glue refuses the name of does not make (it reads as missing).
          catalog.buildTable(spec.identifier(), spec.schema());
        } catch (IllegalArgumentException | ValidationException e) {
          planned.add(refusedName(spec, "its name", e));
          continue;
        }
        List<Namespace> newNamespaces = missing.stream().filter(plannedNamespaces::add).toList();
        planned.add(new Planned(spec, null, null, newNamespaces, planCreate(spec, newNamespaces)));
      }
    }
    return planned;
  }

  /** A new table whose name the catalog refuses: a refusal in the plan, nothing created. */
  private static Planned refusedName(TableSpec spec, String what, RuntimeException refusal) {
    return new Planned(
        spec,
        null,
        null,
        List.of(),
        new TablePlan(
            spec.table(),
            List.of(),
            List.of(
                new RefusedChange(
                    spec.table(),
                    null,
                    String.format(
                        "Cannot create %s (%s): the catalog refuses %s: %s",
                        spec.table(), spec.source(), what, refusal.getMessage()),
                    null))));
  }

  private Table loadIfExists(TableIdentifier identifier) {
    try {
      return catalog.loadTable(identifier);
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      // Some catalogs (REST) report a missing namespace rather than a missing table.
      return null;
    }
  }

  private static TablePlan planCreate(TableSpec spec, List<Namespace> newNamespaces) {
    List<TableChange> changes = new ArrayList<>();
    newNamespaces.forEach(
        namespace ->
            changes.add(new TableChange.CreateNamespace(spec.table(), namespace.toString())));
    changes.add(
        new TableChange.CreateTable(
            spec.table(),
            spec.columns().size(),
            spec.describePartitioning(),
            spec.key(),
            FORMAT_VERSION));
    return new TablePlan(spec.table(), changes, List.of());
  }

  /** The namespace and its missing ancestors, outermost first. */
  private List<Namespace> missingNamespaces(Namespace namespace) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return List.of();
    }
    List<Namespace> missing = new ArrayList<>();
    String[] levels = namespace.levels();
    for (int depth = 1; depth <= levels.length; depth++) {
      Namespace level = Namespace.of(Arrays.copyOf(levels, depth));
      if (!namespaces.namespaceExists(level)) {
        missing.add(level);
      }
    }
    return missing;
  }

  /** Builds a new table's metadata as Iceberg would, at a placeholder location; stages nothing. */
  private static Transaction validateNew(Planned planned) {
    TableSpec spec = planned.spec();
    validated(
        planned,
        () ->
            TableMetadata.newTableMetadata(
                spec.schema(),
                spec.partitionSpec(),
                SortOrder.unsorted(),
                "file:/floe-validation-only",
                newTableProperties(spec)));
    return null;
  }

  private Transaction stageValidated(Planned planned) {
    return validated(planned, () -> stage(planned));
  }

  private static <T> T validated(Planned planned, Supplier<T> staging) {
    try {
      return staging.get();
    } catch (IllegalArgumentException | ValidationException e) {
      throw new InvalidInputException(
          String.format(
              "Cannot apply the spec of %s (%s): Iceberg refused it: %s; no table was changed",
              planned.spec().table(), planned.spec().source(), e.getMessage()),
          e);
    }
  }

  private Transaction stage(Planned planned) {
    TableSpec spec = planned.spec();
    if (planned.table() == null) {
      return catalog
          .buildTable(spec.identifier(), spec.schema())
          .withPartitionSpec(spec.partitionSpec())
          .withProperties(newTableProperties(spec))
          .createTransaction();
    }
    Transaction transaction = planned.table().newTransaction();
    TableEvolution.stage(transaction, spec, planned.plan());
    return transaction;
  }

  private static Map<String, String> newTableProperties(TableSpec spec) {
    Map<String, String> properties = FloeTableProperties.of(spec);
    properties.put(TableProperties.FORMAT_VERSION, String.valueOf(FORMAT_VERSION));
    return properties;
  }

  /** Creates the planned namespaces, outermost first; returns those this call created. */
  private List<Namespace> createNamespaces(List<Planned> planned) {
    List<Namespace> created = new ArrayList<>();
    for (Planned table : planned) {
      for (Namespace namespace : table.newNamespaces()) {
        try {
          ((SupportsNamespaces) catalog).createNamespace(namespace);
          created.add(namespace);
        } catch (AlreadyExistsException e) {
          // Created meanwhile by someone else: the goal is met.
        }
      }
    }
    return created;
  }

  /** Drops {@code namespaces}, innermost first, each only while it is empty; best effort. */
  private void dropIfEmpty(List<Namespace> namespaces) {
    for (int i = namespaces.size() - 1; i >= 0; i--) {
      try {
        ((SupportsNamespaces) catalog).dropNamespace(namespaces.get(i));
      } catch (RuntimeException e) {
        // Not empty (another writer used it meanwhile) or not droppable: it stays, harmless.
      }
    }
  }
}
