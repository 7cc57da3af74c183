package dev.floe.catalog.maintain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FileIO;

/**
 * The file locations of the live entries of manifests, read once per manifest path. A manifest file
 * never changes once written and is shared by every later snapshot that keeps it, so planning one
 * table (orphans, then expiry with its expired and kept snapshots) reads each distinct manifest
 * once instead of once per action and snapshot set. One cache per table and planning pass;
 * thread-safe.
 */
public final class ManifestCache {
  private static final List<String> PATH = List.of("file_path");

  private final Map<String, List<String>> locations = new ConcurrentHashMap<>();

  private ManifestCache() {}

  public static ManifestCache create() {
    return new ManifestCache();
  }

  /** The locations {@code manifest}'s live entries name (data or delete files), as written. */
  List<String> locations(ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs) {
    return locations.computeIfAbsent(manifest.path(), path -> read(manifest, io, specs));
  }

  private static List<String> read(
      ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs) {
    // Only the location is needed: no stats, partition values or bounds decoded.
    return manifest.content() == ManifestContent.DATA
        ? read(ManifestFiles.read(manifest, io, specs).select(PATH), manifest)
        : read(ManifestFiles.readDeleteManifest(manifest, io, specs).select(PATH), manifest);
  }

  private static <F extends ContentFile<F>> List<String> read(
      ManifestReader<F> reader, ManifestFile manifest) {
    // Live entries only, as Iceberg's own expiry and cleanup read them: a file only a DELETED entry
    // names was live in an older snapshot, and is referenced through that snapshot if it is kept.
    List<String> found = new ArrayList<>();
    try (ManifestReader<F> entries = reader) {
      for (F file : entries) {
        found.add(file.location());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
    }
    return List.copyOf(found);
  }
}
