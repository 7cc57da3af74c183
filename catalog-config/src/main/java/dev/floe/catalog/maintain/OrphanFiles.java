package dev.floe.catalog.maintain;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.spec.MaintenancePolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.iceberg.util.PropertyUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes files under the table's location that nothing in the table references and that are older
 * than a minimum age: files of jobs that failed before their commit, and files left behind by
 * earlier cleanups. "Referenced" is {@link ReferencedFiles#all}: every snapshot of every branch and
 * tag and every retained snapshot, with their manifest lists, manifests, data, delete and
 * statistics files, plus the metadata.json files of the metadata log. The minimum age protects the
 * files of a job that is still running: it must be longer than the longest job, and is never below
 * {@link #SHORTEST_MIN_AGE}.
 */
public final class OrphanFiles implements MaintenanceAction {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFiles.class);

  /** Table property holding the minimum age (ISO-8601 duration) when none is given. */
  public static final String MIN_AGE_PROPERTY = MaintenancePolicy.ORPHAN_MIN_AGE;

  public static final Duration DEFAULT_MIN_AGE = MaintenancePolicy.DEFAULT_ORPHAN_MIN_AGE;
  public static final Duration SHORTEST_MIN_AGE = MaintenancePolicy.SHORTEST_ORPHAN_MIN_AGE;

  private final Table table;
  private final String name;
  private Clock clock;
  private Duration minAge;
  private ManifestCache manifests = ManifestCache.create();

  private OrphanFiles(Table table, String name) {
    this.table = table;
    this.name = name;
  }

  /**
   * @param table the table
   * @param name its name, for messages
   */
  public static OrphanFiles of(Table table, String name) {
    return new OrphanFiles(table, name);
  }

  /** The clock file ages are measured with. Required. */
  public OrphanFiles clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  /** Delete only files older than this (default: the table property, else P3D). */
  public OrphanFiles minAge(Duration minAge) {
    this.minAge = minAge;
    return this;
  }

  /**
   * Read manifests through {@code cache}, shared with other actions planned on the same table (a
   * manifest is immutable, and shared by many snapshots: read once).
   */
  public OrphanFiles manifestCache(ManifestCache cache) {
    this.manifests = cache;
    return this;
  }

  @Override
  public String name() {
    return "orphans";
  }

  @Override
  public void check() {
    checkListing();
    // Iceberg's own orphan removal refuses too: a table with GC off may share its files (a
    // registered copy, a migrated or snapshot table), which it cannot tell from orphans.
    if (!gcEnabled(table)) {
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s: its property %s is false, so its location may hold"
              + " files another table uses; set %s=true once no other table does",
          name, TableProperties.GC_ENABLED, TableProperties.GC_ENABLED);
    }
  }

  /** Whether the table lets Floe delete files it does not reference ({@code gc.enabled}). */
  public static boolean gcEnabled(Table table) {
    return PropertyUtil.propertyAsBoolean(
        table.properties(), TableProperties.GC_ENABLED, TableProperties.GC_ENABLED_DEFAULT);
  }

  private void checkListing() {
    if (clock == null) {
      throw new IllegalStateException("Cannot remove orphan files of " + name + ": no clock given");
    }
    minAge();
    if (!(table.io() instanceof SupportsPrefixOperations)) {
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s: its FileIO %s cannot list files",
          name, table.io().getClass().getName());
    }
  }

  /**
   * Lists the files that would be deleted; changes nothing.
   *
   * @throws InvalidInputException for a minimum age under one hour, a table with {@code
   *     gc.enabled=false}, or a FileIO that cannot list
   */
  public OrphanFilesPlan apply() {
    check();
    return list();
  }

  /**
   * The unreferenced files, old and young, as {@link #apply()} lists them, also for a table with
   * {@code gc.enabled=false}: for planning (young files mark partitions being written), never to
   * delete.
   */
  public OrphanFilesPlan listing() {
    checkListing();
    return list();
  }

  private OrphanFilesPlan list() {
    Duration age = minAge();
    String location = table.location();
    String prefix = location.endsWith("/") ? location : location + "/";
    Instant now = clock.instant();
    requireNotInsideAnotherTable(location);

    // List first, then read the references: a file a job commits while we list is then known as
    // referenced, instead of looking like an orphan.
    List<FileInfo> listed = new ArrayList<>();
    Iterable<FileInfo> files = listPrefix(prefix);
    for (FileInfo file : files) {
      if (FileLocations.isUnder(file.location(), location)) {
        listed.add(file);
      }
    }
    table.refresh();
    ReferencedFiles referenced = ReferencedFiles.all(table, manifests);
    checkListingSeesTheTable(listed);

    String metadataDirectory = metadataDirectory();
    List<FileInfo> unreferenced =
        listed.stream().filter(file -> !referenced.contains(file.location())).toList();
    Set<String> sameFiles = referencedUnderAnotherSpelling(listed, unreferenced, referenced);
    List<OrphanFile> orphans = new ArrayList<>();
    List<OrphanFile> young = new ArrayList<>();
    for (FileInfo file : unreferenced) {
      if (sameFiles.contains(file.location())) {
        continue;
      }
      if (MetadataUuid.isMetadataJson(file.location())) {
        requireOwnMetadata(file.location(), metadataDirectory, location);
      }
      Instant created = Instant.ofEpochMilli(file.createdAtMillis());
      OrphanFile orphan =
          new OrphanFile(
              file.location(),
              file.size(),
              created,
              Duration.between(created, now).truncatedTo(ChronoUnit.SECONDS));
      (orphan.age().compareTo(age) >= 0 ? orphans : young).add(orphan);
    }
    orphans.sort(Comparator.comparing(OrphanFile::createdAt).thenComparing(OrphanFile::location));
    young.sort(Comparator.comparing(OrphanFile::createdAt).thenComparing(OrphanFile::location));
    int listedReferenced = listed.size() - orphans.size() - young.size();
    return new OrphanFilesPlan(
        name, location, age, now, listed.size(), listedReferenced, orphans, young, false);
  }

  /** Deletes the orphan files {@link #apply()} lists. */
  public OrphanFilesPlan commit() {
    OrphanFilesPlan plan = apply();
    List<String> locations = plan.orphans().stream().map(OrphanFile::location).toList();
    if (!locations.isEmpty()) {
      if (table.io() instanceof SupportsBulkOperations bulk) {
        bulk.deleteFiles(locations);
      } else {
        locations.forEach(table.io()::deleteFile);
      }
    }
    return new OrphanFilesPlan(
        plan.table(),
        plan.location(),
        plan.minAge(),
        plan.now(),
        plan.listedFiles(),
        plan.referencedFiles(),
        plan.orphans(),
        plan.youngOrphans(),
        true);
  }

  @Override
  public MaintenanceReport run(boolean dryRun) {
    TableStats before = TableStats.of(table);
    OrphanFilesPlan plan = dryRun ? apply() : commit();
    // Orphans are not part of the table, so its statistics do not change.
    return new MaintenanceReport(
        name(), dryRun, before, dryRun ? before : TableStats.of(table), Set.of(), plan);
  }

  private Duration minAge() {
    Duration age = minAge;
    if (age == null) {
      String property = table.properties().get(MIN_AGE_PROPERTY);
      if (property == null) {
        age = DEFAULT_MIN_AGE;
      } else {
        try {
          age = Duration.parse(property.trim());
        } catch (DateTimeParseException e) {
          throw InvalidInputException.of(
              "Cannot remove orphan files of %s: table property %s=%s is not an ISO-8601 duration"
                  + " such as P3D",
              name, MIN_AGE_PROPERTY, property);
        }
      }
    }
    if (age.compareTo(SHORTEST_MIN_AGE) < 0) {
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s with a minimum age of %s: it must be at least %s and"
              + " longer than the longest job, because a running job's uncommitted files look like"
              + " orphans",
          name, age, SHORTEST_MIN_AGE);
    }
    return age;
  }

  /**
   * Refuses when the listing does not contain the table's own current files: then locations from
   * metadata and from the listing do not compare, and every referenced file would look orphaned.
   */
  private void checkListingSeesTheTable(List<FileInfo> listed) {
    Set<String> listedLocations = new java.util.HashSet<>();
    listed.forEach(file -> listedLocations.add(FileLocations.normalise(file.location())));
    List<String> mustBeListed = new ArrayList<>();
    mustBeListed.add(((HasTableOperations) table).operations().current().metadataFileLocation());
    Snapshot current = table.currentSnapshot();
    if (current != null && current.manifestListLocation() != null) {
      mustBeListed.add(current.manifestListLocation());
    }
    for (String location : mustBeListed) {
      if (location != null
          && FileLocations.isUnder(location, table.location())
          && !listedLocations.contains(FileLocations.normalise(location))) {
        throw new IllegalStateException(
            String.format(
                "Cannot remove orphan files of %s: listing %s did not return the table's own file"
                    + " %s, so listed and referenced locations do not compare; nothing was deleted",
                name, table.location(), location));
      }
    }
  }

  /**
   * The unreferenced listed locations that are, on the local file system, a referenced file spelled
   * differently (a link in the path): usually no referenced file is unmatched, so this resolves
   * nothing.
   */
  private Set<String> referencedUnderAnotherSpelling(
      List<FileInfo> listed, List<FileInfo> unreferenced, ReferencedFiles referenced) {
    if (unreferenced.isEmpty()) {
      return Set.of();
    }
    Set<String> listedLocations = new java.util.HashSet<>();
    listed.forEach(file -> listedLocations.add(FileLocations.normalise(file.location())));
    List<String> unmatched =
        referenced.locations().stream().filter(l -> !listedLocations.contains(l)).toList();
    if (unmatched.isEmpty()) {
      return Set.of();
    }
    return SameLocalFiles.referencedAmong(
        table.io(), unreferenced.stream().map(FileInfo::location).toList(), unmatched);
  }

  /**
   * Refuses the run when an unreferenced metadata.json is not the table's own: a table nested under
   * this one's location (table "metadata" of namespace s.t lies at s/t/metadata), or one sharing it
   * (renamed, and another created under the old name). Each is read, and it is the table's own only
   * when it names the table's uuid (an older metadata folder, a {@code write.metadata.path} since
   * changed); one in the table's own folder that cannot be read is a failed commit's.
   *
   * @throws InvalidInputException naming the file, before anything is deleted
   */
  private void requireOwnMetadata(String file, String metadataDirectory, String location) {
    boolean inOwnFolder =
        FileLocations.sameDirectory(FileLocations.parent(file), metadataDirectory);
    String owner;
    try {
      owner = MetadataUuid.read(table.io(), file);
    } catch (RuntimeException e) {
      if (inOwnFolder && e instanceof MetadataUuid.NotMetadataException) {
        return; // a metadata file a failed commit left half written: an orphan of the table's own
      }
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s: %s under its location %s may be another table's"
              + " metadata and cannot be read (%s); nothing was deleted",
          name, file, location, e.getMessage());
    }
    String own = ((HasTableOperations) table).operations().current().uuid();
    if (!own.equals(owner)) {
      // Also in the table's own metadata folder: a table renamed and another created under the
      // old name share the location (a JDBC catalog keeps it), and each sees the other's files.
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s: %s looks like another table's metadata under its"
              + " location %s (table-uuid %s, not %s); nothing was deleted",
          name, file, location, owner, own);
    }
  }

  /**
   * Refuses the run when the table's location lies inside another table's data or metadata folder:
   * table "data" of namespace s.t lies at s/t/data, where table s.t keeps its data files, which
   * this table's listing would see and none of its references explain. The other table is told by
   * content, not by the catalog: a metadata.json in the {@code metadata} folder next to that folder
   * that names another table uuid. (A table whose {@code write.data.path} puts its files elsewhere
   * is not seen this way.)
   *
   * @throws InvalidInputException naming the other table's metadata, before anything is listed
   */
  private void requireNotInsideAnotherTable(String location) {
    String normalised = FileLocations.normalise(location);
    int pathStart = normalised.indexOf('/', normalised.indexOf("://") + 3);
    if (pathStart < 0) {
      return;
    }
    String root = normalised.substring(0, pathStart);
    String[] segments = normalised.substring(pathStart + 1).split("/");
    String own = ((HasTableOperations) table).operations().current().uuid();
    for (int i = 1; i < segments.length; i++) {
      if (!segments[i].equals("data") && !segments[i].equals("metadata")) {
        continue;
      }
      String folder = root + "/" + String.join("/", List.of(segments).subList(0, i));
      String metadata = folder + "/metadata";
      Optional<String> found = firstMetadataJson(metadata);
      if (found.isEmpty()) {
        continue;
      }
      String owner;
      try {
        owner = MetadataUuid.read(table.io(), found.get());
      } catch (RuntimeException e) {
        throw InvalidInputException.of(
            "Cannot remove orphan files of %s: its location %s lies inside the %s folder of %s,"
                + " where %s may be another table's metadata and cannot be read (%s); nothing was"
                + " deleted",
            name, location, segments[i], folder, found.get(), e.getMessage());
      }
      if (!own.equals(owner)) {
        throw InvalidInputException.of(
            "Cannot remove orphan files of %s: its location %s lies inside the %s folder of another"
                + " table at %s (table-uuid %s, metadata %s), whose files there it does not"
                + " reference; nothing was deleted",
            name, location, segments[i], folder, owner, found.get());
      }
    }
  }

  /** The files under {@code prefix}, through the table's FileIO (which {@link #check} saw list). */
  private Iterable<FileInfo> listPrefix(String prefix) {
    // A local location through Hadoop's local file system: java.nio lists the same files faster.
    return LocalListing.of(table.io(), prefix)
        .<Iterable<FileInfo>>map(local -> local)
        .orElseGet(() -> ((SupportsPrefixOperations) table.io()).listPrefix(prefix));
  }

  /** A metadata.json directly in {@code directory}, if any; only the first one listed is read. */
  private Optional<String> firstMetadataJson(String directory) {
    String prefix = directory + "/";
    Iterable<FileInfo> files;
    try {
      files = listPrefix(prefix);
      for (FileInfo file : files) {
        if (MetadataUuid.isMetadataJson(file.location())
            && FileLocations.sameDirectory(FileLocations.parent(file.location()), directory)) {
          return Optional.of(file.location());
        }
      }
    } catch (RuntimeException e) {
      if (missingOrDenied(e)) {
        // Missing, or not this table's to read (a prefix-restricted S3 policy): it says nothing.
        LOG.debug("Cannot list {} for orphan removal of {}", directory, name, e);
        return Optional.empty();
      }
      // Anything else (a throttled or broken listing) may hide another table: refuse.
      throw InvalidInputException.of(
          "Cannot remove orphan files of %s: cannot list %s to tell whether its location lies"
              + " inside another table's folder (%s); nothing was deleted",
          name, directory, e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * A listing that failed because the folder is not there, or these credentials may not list it.
   */
  private static boolean missingOrDenied(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String type = t.getClass().getSimpleName();
      String message = t.getMessage() == null ? "" : t.getMessage();
      if (t instanceof java.io.FileNotFoundException
          || t instanceof java.nio.file.NoSuchFileException
          || t instanceof java.nio.file.AccessDeniedException
          || t instanceof org.apache.iceberg.exceptions.NotFoundException
          || type.equals("AccessControlException")
          || type.equals("NoSuchBucketException")
          || message.contains("Status Code: 403")
          || message.contains("Status Code: 404")) {
        return true;
      }
    }
    return false;
  }

  private String metadataDirectory() {
    String current = ((HasTableOperations) table).operations().current().metadataFileLocation();
    return current.substring(0, current.lastIndexOf('/'));
  }
}
