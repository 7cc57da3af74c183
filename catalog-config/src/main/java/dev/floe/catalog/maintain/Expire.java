package dev.floe.catalog.maintain;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.lineage.LineageKeys;
import dev.floe.catalog.spec.FloeTableProperties;
import dev.floe.catalog.spec.LateDataSpec;
import dev.floe.catalog.spec.RetentionSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Expires snapshots by the table's retention ({@code retention: {keep_last, max_age}} of its spec,
 * read back from the table properties {@link FloeTableProperties}) through Iceberg's own {@code
 * table.expireSnapshots()}, which keeps every branch head and tagged snapshot and never deletes a
 * file a kept snapshot references. A snapshot is kept while either limit keeps it: it is one of a
 * branch's {@code keep_last} newest, or younger than {@code max_age}.
 *
 * <p>The plan is computed here with the injected clock, the way Iceberg's {@code RemoveSnapshots}
 * computes it, and checked against Iceberg's own {@code apply()} before anything is committed:
 * Iceberg judges a ref's max-ref-age ({@code floe tag --retain}) against the system clock, so if
 * the two disagree nothing is changed.
 */
public final class Expire implements MaintenanceAction {
  private final Table table;
  private final String name;
  private Clock clock;
  private RetentionSpec retention;
  private ManifestCache manifests = ManifestCache.create();

  private Expire(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static Expire of(Table table, String name) {
    return new Expire(table, name);
  }

  /** The clock that says what "now" is for {@code max_age}. Required. */
  public Expire clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  /**
   * Read manifests through {@code cache}, shared with other actions planned on the same table (a
   * manifest is immutable, and shared by many snapshots: read once).
   */
  public Expire manifestCache(ManifestCache cache) {
    this.manifests = cache;
    return this;
  }

  /** Use this retention instead of the one the table's properties carry. */
  public Expire retention(RetentionSpec retention) {
    this.retention = retention;
    return this;
  }

  @Override
  public String name() {
    return "expire";
  }

  @Override
  public void check() {
    if (clock == null) {
      throw new IllegalStateException("Cannot expire snapshots of " + name + ": no clock given");
    }
    retention();
  }

  /**
   * Which snapshots and files would go; changes nothing.
   *
   * @throws InvalidInputException when the table has no retention, GC is disabled, or an audit
   *     branch would be dropped
   */
  public ExpirePlan apply() {
    check();
    RetentionSpec rules = retention();
    long now = clock.millis();
    long olderThan = rules.maxAge() == null ? Long.MAX_VALUE : now - rules.maxAge().toMillis();
    int keepLast = rules.keepLast() == null ? 1 : rules.keepLast();
    InvalidInputException.check(
        keepLast >= 1,
        "Cannot expire snapshots of %s: keep_last must be at least 1 (got %d)",
        name,
        keepLast);

    List<String> droppedRefs = new ArrayList<>();
    List<Snapshot> expired = new ArrayList<>();
    List<Snapshot> remaining = new ArrayList<>();
    // Planned on the table as it is; a commit landing before Iceberg's own plan (which reads the
    // table again) makes the two differ for that reason alone: plan again on the new metadata.
    for (int attempt = 1; ; attempt++) {
      table.refresh();
      String planned = metadataLocation();
      droppedRefs.clear();
      expired.clear();
      remaining.clear();
      Set<Long> kept = keptSnapshots(now, olderThan, keepLast, droppedRefs);
      for (Snapshot snapshot : table.snapshots()) {
        (kept.contains(snapshot.snapshotId()) ? remaining : expired).add(snapshot);
      }
      expired.sort(Comparator.comparingLong(Snapshot::timestampMillis));
      Set<Long> iceberg = icebergWouldExpire(olderThan, keepLast);
      if (agrees(expired, iceberg)) {
        break;
      }
      if (planned.equals(metadataLocation()) || attempt == PLAN_ATTEMPTS) {
        throw disagreement(iceberg, expired);
      }
    }

    Map<String, FileKind> filesToDelete =
        expired.isEmpty()
            ? Map.of()
            : ReferencedFiles.snapshots(table, expired, manifests)
                .minus(ReferencedFiles.snapshots(table, remaining, manifests));
    return new ExpirePlan(
        name,
        rules,
        Instant.ofEpochMilli(now),
        rules.maxAge() == null ? null : Instant.ofEpochMilli(olderThan),
        expired.stream().map(Expire::expired).toList(),
        droppedRefs,
        remaining.size(),
        filesToDelete,
        false,
        List.of());
  }

  /**
   * Expires the planned snapshots and deletes the files only they referenced: those Iceberg's
   * cleanup deletes (it selects snapshots again on the table as it is at its commit, so a commit
   * that landed in between is handled) and those of the plan it keeps (a file a kept snapshot
   * removed, though only expired snapshots read it). Never a file the table references after the
   * commit. The report names the snapshots the commit removed.
   */
  public ExpirePlan commit() {
    ExpirePlan plan = apply();
    if (plan.isEmpty()) {
      return plan.withDeleted(List.of());
    }
    Map<Long, Snapshot> before = new LinkedHashMap<>();
    table.snapshots().forEach(snapshot -> before.put(snapshot.snapshotId(), snapshot));
    List<String> deleted = Collections.synchronizedList(new ArrayList<>());
    LiveFiles live = new LiveFiles();
    configured(
            olderThan(plan), plan.retention().keepLast() == null ? 1 : plan.retention().keepLast())
        .deleteWith(
            location -> {
              // Iceberg's cleanup deletes every file an expired ancestor removed, without asking
              // whether a later snapshot added the same path back, as a revert does. The callback
              // runs after the metadata commit, so the table's live file set is known.
              if (!live.contains(location)) {
                table.io().deleteFile(location);
                deleted.add(FileLocations.normalise(location));
              }
            })
        .commit();
    Set<String> gone = new HashSet<>(deleted);
    for (String location : plan.filesToDelete().keySet()) {
      if (!gone.contains(location) && !live.contains(location)) {
        table.io().deleteFile(location);
        deleted.add(location);
      }
    }
    table.refresh();
    List<ExpiredSnapshot> removed =
        before.values().stream()
            .filter(s -> table.snapshot(s.snapshotId()) == null)
            .sorted(Comparator.comparingLong(Snapshot::timestampMillis))
            .map(Expire::expired)
            .toList();
    int kept = 0;
    for (Snapshot ignored : table.snapshots()) {
      kept++;
    }
    return plan.committed(removed, kept, List.copyOf(deleted));
  }

  /**
   * The files the table references after the expiry committed, read on first use (again while
   * another process's files vanish meanwhile). If they cannot be read, every file counts as live:
   * nothing is deleted, and orphan cleanup finds the files later.
   */
  private final class LiveFiles {
    private ReferencedFiles files;
    private boolean unreadable;

    synchronized boolean contains(String location) {
      if (files == null && !unreadable) {
        files = RereadOnMissingFiles.read(table, () -> ReferencedFiles.all(table), null);
        unreadable = files == null;
      }
      return unreadable || files.contains(location);
    }
  }

  private static ExpiredSnapshot expired(Snapshot s) {
    return new ExpiredSnapshot(
        s.snapshotId(),
        Instant.ofEpochMilli(s.timestampMillis()),
        s.summary() == null ? null : s.summary().get(LineageKeys.RUN_ID));
  }

  @Override
  public MaintenanceReport run(boolean dryRun) {
    TableStats before = TableStats.of(table);
    ExpirePlan plan = dryRun ? apply() : commit();
    if (dryRun) {
      Set<Long> expired =
          plan.expired().stream().map(ExpiredSnapshot::snapshotId).collect(Collectors.toSet());
      List<Snapshot> kept = new ArrayList<>();
      for (Snapshot snapshot : table.snapshots()) {
        if (!expired.contains(snapshot.snapshotId())) {
          kept.add(snapshot);
        }
      }
      return new MaintenanceReport(
          name(),
          true,
          before,
          TableStats.of(table, kept),
          plan.expired().isEmpty() ? Set.of() : Set.of("metadataBytes"),
          plan);
    }
    return new MaintenanceReport(name(), false, before, TableStats.of(table), Set.of(), plan);
  }

  private RetentionSpec retention() {
    RetentionSpec rules = tableOrGivenRetention();
    // Table specs refuse this pair, but a table may carry it from an older Floe, or a command
    // line may ask for it: expiry would remove the loads of slices still open for late rows, and
    // `floe late` and `floe report` would silently stop listing them.
    Optional<LateDataSpec> late;
    try {
      late = FloeTableProperties.lateData(table.properties());
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of("Cannot expire snapshots of %s: %s", name, e.getMessage());
    }
    if (late.isPresent()
        && rules.maxAge() != null
        && rules.maxAge().compareTo(late.get().window()) < 0) {
      throw InvalidInputException.of(
          "Cannot expire snapshots of %s: max_age %s is shorter than the table's late_data.window"
              + " %s, so expiry would remove the loads of slices still open for late rows; set"
              + " retention.max_age to at least the window in its table spec and run `floe tables"
              + " apply`",
          name,
          FloeTableProperties.iso(rules.maxAge()),
          FloeTableProperties.iso(late.get().window()));
    }
    return rules;
  }

  private RetentionSpec tableOrGivenRetention() {
    if (retention != null) {
      return retention;
    }
    try {
      return FloeTableProperties.retention(table.properties())
          .orElseThrow(
              () ->
                  InvalidInputException.of(
                      "Cannot expire snapshots of %s: the table has no retention; add"
                          + " `retention: {keep_last: 20, max_age: P7D}` to its table spec and run"
                          + " `floe tables apply` (it sets the table properties %s and %s)",
                      name,
                      FloeTableProperties.RETENTION_KEEP_LAST,
                      FloeTableProperties.RETENTION_MAX_AGE));
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of("Cannot expire snapshots of %s: %s", name, e.getMessage());
    }
  }

  /**
   * The snapshots to keep, as Iceberg's RemoveSnapshots decides them: the heads of refs that are
   * kept, each branch's ancestors that either limit keeps, and snapshots on no branch or tag that
   * are young enough.
   */
  private Set<Long> keptSnapshots(
      long now, long olderThan, int keepLast, List<String> droppedRefs) {
    Set<Long> kept = new HashSet<>();
    Set<Long> onRefs = new HashSet<>();
    for (Map.Entry<String, SnapshotRef> entry : new java.util.TreeMap<>(table.refs()).entrySet()) {
      String refName = entry.getKey();
      SnapshotRef ref = entry.getValue();
      Snapshot head = table.snapshot(ref.snapshotId());
      if (head == null) {
        continue;
      }
      boolean main = refName.equals(SnapshotRef.MAIN_BRANCH);
      Long maxRefAgeMs = RefAges.maxRefAgeMs(table.properties(), refName, ref);
      boolean agedOut = maxRefAgeMs != null && now - head.timestampMillis() > maxRefAgeMs;
      if (agedOut && ref.isBranch() && AuditBranch.is(refName)) {
        throw InvalidInputException.of(
            "Cannot expire snapshots of %s: audit branch %s is older than its max-ref-age (its own,"
                + " else the table's history.expire.max-ref-age-ms), and"
                + " expiry would drop it with its unpublished run; publish or discard it first",
            name, refName);
      }
      if (agedOut) {
        droppedRefs.add(refName);
        continue;
      }
      kept.add(head.snapshotId());
      if (ref.isBranch()) {
        long branchOlderThan =
            ref.maxSnapshotAgeMs() != null ? now - ref.maxSnapshotAgeMs() : olderThan;
        int branchKeep = ref.minSnapshotsToKeep() != null ? ref.minSnapshotsToKeep() : keepLast;
        int count = 0;
        boolean keeping = true;
        for (Snapshot ancestor : SnapshotUtil.ancestorsOf(head.snapshotId(), table::snapshot)) {
          onRefs.add(ancestor.snapshotId());
          keeping =
              keeping && (count < branchKeep || ancestor.timestampMillis() >= branchOlderThan);
          if (keeping) {
            kept.add(ancestor.snapshotId());
            count++;
          }
        }
      } else {
        onRefs.add(head.snapshotId());
      }
    }
    for (Snapshot snapshot : table.snapshots()) {
      if (!onRefs.contains(snapshot.snapshotId()) && snapshot.timestampMillis() >= olderThan) {
        kept.add(snapshot.snapshotId());
      }
    }
    return kept;
  }

  /** How often planning starts again when commits keep landing while it runs. */
  private static final int PLAN_ATTEMPTS = 5;

  private String metadataLocation() {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  /** What Iceberg's own expiry would remove, planned on the table as it reads it now. */
  private Set<Long> icebergWouldExpire(long olderThan, int keepLast) {
    Set<Long> iceberg = new TreeSet<>();
    configured(olderThan, keepLast).apply().forEach(s -> iceberg.add(s.snapshotId()));
    return iceberg;
  }

  private static boolean agrees(List<Snapshot> expired, Set<Long> iceberg) {
    return ids(expired).equals(iceberg);
  }

  private static Set<Long> ids(List<Snapshot> snapshots) {
    Set<Long> ids = new TreeSet<>();
    snapshots.forEach(s -> ids.add(s.snapshotId()));
    return ids;
  }

  private IllegalStateException disagreement(Set<Long> iceberg, List<Snapshot> expired) {
    return new IllegalStateException(
        String.format(
            "Cannot expire snapshots of %s: Iceberg would expire %s where the retention says %s"
                + " (Iceberg judges a ref's max-ref-age and a branch's own retention by the"
                + " system clock; the clock given says %s); nothing was changed",
            name, iceberg, ids(expired), clock.instant()));
  }

  private ExpireSnapshots configured(long olderThan, int keepLast) {
    try {
      return table.expireSnapshots().expireOlderThan(olderThan).retainLast(keepLast);
    } catch (ValidationException e) {
      throw InvalidInputException.of("Cannot expire snapshots of %s: %s", name, e.getMessage());
    }
  }

  private static long olderThan(ExpirePlan plan) {
    return plan.expireOlderThan() == null ? Long.MAX_VALUE : plan.expireOlderThan().toEpochMilli();
  }
}
